module github.com/mgraph-dev/mgraph

go 1.26.8

require github.com/stretchr/testify v1.12.1

require (
	github.com/klauspost/compress v1.20.3 // indirect
	github.com/spf13/pflag v1.0.10 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/exp v0.0.0-20261014143641-f0251eb4aa3e // indirect
)
