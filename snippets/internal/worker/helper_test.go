package worker

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// TestHelperStub checks that every function HelperStub declares exists in
// HelperGo with the same signature: the type checker checks snippets
// against the stub, the native build links them with HelperGo.
func TestHelperStub(t *testing.T) {
	check := func(name, src string) *types.Package {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		// HelperGo declares main but calls _wbCells, which the snippets'
		// file defines.
		cells, err := parser.ParseFile(fset, "cells.go", "package main\nfunc _wbCells() {}\n", 0)
		if err != nil {
			t.Fatal(err)
		}
		files := []*ast.File{f}
		if name == "helper.go" {
			files = append(files, cells)
		}
		conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
		pkg, err := conf.Check("main", fset, files, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return pkg
	}
	stub := check("stub.go", HelperStub)
	helper := check("helper.go", HelperGo)
	if len(stub.Scope().Names()) == 0 {
		t.Fatal("the stub declares nothing")
	}
	for _, name := range stub.Scope().Names() {
		want := stub.Scope().Lookup(name).Type()
		got := helper.Scope().Lookup(name)
		if got == nil {
			t.Errorf("HelperGo does not declare %s", name)
			continue
		}
		if !types.Identical(got.Type(), want) {
			t.Errorf("%s: HelperGo has %s, the stub %s", name, got.Type(), want)
		}
	}
}
