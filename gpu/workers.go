package gpu

import "github.com/mgraph-dev/mgraph/internal/par"

func defaultWorkers() int { return par.Workers(0) }
