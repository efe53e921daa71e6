package dense

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mgraph-dev/mgraph/graph/gen"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/preprocess"
)

// rmatLayout builds (or loads from a file cached in the temporary
// directory, since generating and preprocessing take a while) the layout of
// R-MAT scale/16, symmetrized, without self-loops or repeated arcs, with
// the default parameters.
func rmatLayout(tb testing.TB, scale int) *layout.Layout {
	tb.Helper()
	path := filepath.Join(os.TempDir(), "mgraph-dense-bench-rmat"+itoa(scale)+".mgl")
	if l, err := layout.LoadFile(path); err == nil && l.Params.Equal(layout.DefaultParams()) {
		return l
	}
	ctx := context.Background()
	el, err := gen.RMAT(ctx, gen.DefaultRMAT(scale, 16), 0, nil)
	if err != nil {
		tb.Fatal(err)
	}
	el.Symmetrize(0)
	el.DropSelfLoops()
	el.Dedupe(0)
	l, err := preprocess.Build(ctx, el, layout.DefaultParams(), preprocess.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	_ = layout.SaveFile(path, l, layout.SaveOptions{Level: 1}) // a cache only
	return l
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
