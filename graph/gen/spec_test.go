package gen

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseSpecGood(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Spec
		str  string
	}{
		{"rmat:20", Spec{Kind: KindRMAT, Scale: 20, EdgeFactor: 16}, "rmat:20:16"},
		{"rmat:18:8", Spec{Kind: KindRMAT, Scale: 18, EdgeFactor: 8}, "rmat:18:8"},
		{"RMAT:1", Spec{Kind: KindRMAT, Scale: 1, EdgeFactor: 16}, "rmat:1:16"},
		{"kron:16", Spec{Kind: KindKron, Scale: 16, EdgeFactor: 16}, "kron:16:16"},
		{"kron:32:8", Spec{Kind: KindKron, Scale: 32, EdgeFactor: 8}, "kron:32:8"},
		{"uniform:1000:5000", Spec{Kind: KindUniform, N: 1000, Arcs: 5000}, "uniform:1000:5000"},
		{"uniform:2^20:2^24", Spec{Kind: KindUniform, N: 1 << 20, Arcs: 1 << 24}, "uniform:1048576:16777216"},
		{"uniform:7:0", Spec{Kind: KindUniform, N: 7, Arcs: 0}, "uniform:7:0"},
		{"rgg:18", Spec{Kind: KindRGG, Scale: 18, N: 1 << 18}, "rgg:18"},
		{"rgg:n=100000", Spec{Kind: KindRGG, N: 100000}, "rgg:n=100000"},
		{"grid:1000", Spec{Kind: KindGrid, Rows: 1000, Cols: 1000, RemoveFraction: 0.1}, "grid:1000x1000:0.1"},
		{"grid:1000:0", Spec{Kind: KindGrid, Rows: 1000, Cols: 1000}, "grid:1000x1000:0"},
		{"grid:200x300:0.25", Spec{Kind: KindGrid, Rows: 200, Cols: 300, RemoveFraction: 0.25}, "grid:200x300:0.25"},
		{" grid:2X3 ", Spec{Kind: KindGrid, Rows: 2, Cols: 3, RemoveFraction: 0.1}, "grid:2x3:0.1"},
	} {
		got, err := ParseSpec(c.in)
		require.NoError(t, err, c.in)
		assert.Equal(t, c.want, got, c.in)
		assert.Equal(t, c.str, got.String(), c.in)
		back, err := ParseSpec(got.String())
		require.NoError(t, err, c.in)
		assert.Equal(t, got, back, "round trip of %q", c.in)
	}
}

func TestParseSpecBad(t *testing.T) {
	for _, c := range []struct{ in, msg string }{
		{"", "empty"},
		{"rmat", "rmat:SCALE"},
		{"rmat:", "scale"},
		{"rmat:0", "out of range"},
		{"rmat:33", "out of range"},
		{"rmat:x", "not an integer"},
		{"rmat:20:0", "edge factor"},
		{"rmat:20:16:3", "rmat:SCALE"},
		{"kron:32:32", "arcs"},
		{"kron:32:16", "symmetrized"},
		{"rmat:32:17", "arcs"},
		{"uniform:10", "uniform:N:ARCS"},
		{"uniform:0:10", "vertex count"},
		{"uniform:-1:10", "not a non-negative integer"},
		{"uniform:10:2^70", "power of two"},
		{"uniform:2^33:10", "out of range"},
		{"rgg", "rgg:SCALE"},
		{"rgg:0", "scale"},
		{"rgg:32", "out of range"},
		{"rgg:n=0", "point count"},
		{"rgg:n=abc", "point count"},
		{"grid:", "side"},
		{"grid:0", "out of range"},
		{"grid:10x", "columns"},
		{"grid:10x10:1.5", "remove fraction"},
		{"grid:10x10:abc", "remove fraction"},
		{"grid:100000x100000", "more than"},
		{"grid:10:0.1:3", "grid:SIDE"},
		{"tree:10", "unknown kind"},
	} {
		_, err := ParseSpec(c.in)
		require.Error(t, err, c.in)
		assert.ErrorContains(t, err, c.msg, c.in)
		assert.Contains(t, err.Error(), "gen: spec", c.in)
	}
}

func TestSpecGenerate(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		spec string
		arcs uint64 // 0: only check the vertex count
	}{
		{"rmat:10:4", 4 << 10},
		{"kron:10:4", 8 << 10},
		{"uniform:100:1000", 1000},
		{"rgg:12", 0},
		{"rgg:n=3000", 0},
		{"grid:10x20:0", 2 * (10*19 + 20*9)},
	} {
		s, err := ParseSpec(c.spec)
		require.NoError(t, err)
		el, err := s.Generate(ctx, 5, 2, nil)
		require.NoError(t, err, c.spec)
		require.NoError(t, el.Validate())
		assert.Equal(t, s.NumVertices(), el.NumVertices, c.spec)
		if c.arcs != 0 {
			assert.Equal(t, c.arcs, el.NumArcs(), c.spec)
		} else {
			assert.NotZero(t, el.NumArcs(), c.spec)
		}
	}
	_, err := Spec{Kind: "nope"}.Generate(ctx, 1, 1, nil)
	assert.Error(t, err)
}
