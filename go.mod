module github.com/mgraph-dev/mgraph

go 1.26.8

require (
	github.com/klauspost/compress v1.20.3
	github.com/spf13/pflag v1.0.10
	github.com/stretchr/testify v1.12.1
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
