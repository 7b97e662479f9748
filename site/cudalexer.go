package site

import (
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// cudaLexer highlights CUDA C++: chroma has no CUDA lexer (its issue
// 1055), so this is its C++ lexer with CUDA's qualifiers as keywords and
// its built-in variables and intrinsics as built-ins, as Pygments' CUDA
// lexer marks them.
type cudaLexer struct{ cpp chroma.Lexer }

var cudaConfig = &chroma.Config{Name: "CUDA", Aliases: []string{"cuda", "cu"}}

func newCUDALexer() chroma.Lexer {
	cpp := lexers.Get("c++")
	if cpp == nil {
		return nil
	}
	return cudaLexer{cpp}
}

func (l cudaLexer) Config() *chroma.Config                         { return cudaConfig }
func (l cudaLexer) SetRegistry(*chroma.LexerRegistry) chroma.Lexer { return l }
func (l cudaLexer) SetAnalyser(func(string) float32) chroma.Lexer  { return l }
func (l cudaLexer) AnalyseText(string) float32                     { return 0 }

// cudaWords are CUDA's own words: qualifiers (keywords) and built-ins.
var cudaWords = map[string]chroma.TokenType{
	"__global__": chroma.KeywordReserved, "__device__": chroma.KeywordReserved, "__host__": chroma.KeywordReserved,
	"__shared__": chroma.KeywordReserved, "__constant__": chroma.KeywordReserved, "__managed__": chroma.KeywordReserved,
	"__restrict__": chroma.KeywordReserved, "__launch_bounds__": chroma.KeywordReserved, "__forceinline__": chroma.KeywordReserved,
	"__noinline__": chroma.KeywordReserved, "__grid_constant__": chroma.KeywordReserved, "__cluster_dims__": chroma.KeywordReserved,
	"__align__": chroma.KeywordReserved,
	"threadIdx": chroma.NameBuiltin, "blockIdx": chroma.NameBuiltin, "blockDim": chroma.NameBuiltin, "gridDim": chroma.NameBuiltin,
	"warpSize": chroma.NameBuiltin, "__syncthreads": chroma.NameBuiltin, "__syncwarp": chroma.NameBuiltin,
	"__shfl_sync": chroma.NameBuiltin, "__shfl_down_sync": chroma.NameBuiltin, "__shfl_up_sync": chroma.NameBuiltin,
	"__shfl_xor_sync": chroma.NameBuiltin, "__ballot_sync": chroma.NameBuiltin, "__any_sync": chroma.NameBuiltin,
	"__all_sync": chroma.NameBuiltin, "__ldg": chroma.NameBuiltin, "__fmaf_rn": chroma.NameBuiltin,
	"__cvta_generic_to_shared": chroma.NameBuiltin, "atomicAdd": chroma.NameBuiltin,
}

// Tokenise implements chroma.Lexer.
func (l cudaLexer) Tokenise(opts *chroma.TokeniseOptions, text string) (chroma.Iterator, error) {
	it, err := l.cpp.Tokenise(opts, text)
	if err != nil {
		return nil, err
	}
	return func() chroma.Token {
		t := it()
		if t.Type == chroma.Name || t.Type == chroma.NameFunction || t.Type == chroma.NameOther {
			if tt, ok := cudaWords[t.Value]; ok {
				t.Type = tt
			}
		}
		return t
	}, nil
}
