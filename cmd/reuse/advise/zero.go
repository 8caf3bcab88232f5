package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// Whether a type holds pointers, as far as its source says.
const (
	pointersUnknown = iota
	noPointers
	hasPointers
)

// sliceElem finds the slice that file makes at line (make([]E, ...) or a
// []E{...} literal) and returns E as written and whether it holds
// pointers, from the source of file's package: the advice for a pool of
// slices of E depends on it (Slices.Zero). It returns "" and
// pointersUnknown where the file cannot be read or the line makes no
// slice it can see.
func sliceElem(file string, line int64) (string, int) {
	src, err := os.ReadFile(file)
	if err != nil {
		return "", pointersUnknown
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, 0)
	if err != nil {
		return "", pointersUnknown
	}
	elem := madeSlice(f, fset, line)
	if elem == nil {
		return "", pointersUnknown
	}
	types := packageTypes(filepath.Dir(file), f.Name.Name)
	return string(src[fset.Position(elem.Pos()).Offset:fset.Position(elem.End()).Offset]), pointers(elem, types, 0)
}

// madeSlice returns the element type of the first slice made at line of f
// (make([]E, ...) or []E{...}), nil where none is.
func madeSlice(f *ast.File, fset *token.FileSet, line int64) ast.Expr {
	var elem ast.Expr
	ast.Inspect(f, func(n ast.Node) bool {
		if elem != nil || n == nil || int64(fset.Position(n.Pos()).Line) > line || int64(fset.Position(n.End()).Line) < line {
			return elem == nil
		}
		var t ast.Expr
		switch x := n.(type) {
		case *ast.CallExpr:
			if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "make" && len(x.Args) > 0 {
				t = x.Args[0]
			}
		case *ast.CompositeLit:
			t = x.Type
		}
		if a, ok := t.(*ast.ArrayType); ok && a.Len == nil && int64(fset.Position(n.Pos()).Line) == line {
			elem = a.Elt
		}
		return elem == nil
	})
	return elem
}

// packageTypes returns the type declarations of the package pkg in dir.
func packageTypes(dir, pkg string) map[string]ast.Expr {
	types := map[string]ast.Expr{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, name := range files {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil || f.Name.Name != pkg {
			continue
		}
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, sp := range g.Specs {
					ts := sp.(*ast.TypeSpec)
					types[ts.Name.Name] = ts.Type
				}
			}
		}
	}
	return types
}

// pointers says whether values of the type t hold pointers: strings,
// slices, maps, channels, funcs, interfaces and pointers do, as do arrays
// and structs of them; a named type of another package is unknown.
func pointers(t ast.Expr, types map[string]ast.Expr, depth int) int {
	if depth > 16 {
		return pointersUnknown
	}
	switch x := t.(type) {
	case *ast.StarExpr, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.InterfaceType:
		return hasPointers
	case *ast.ArrayType:
		if x.Len == nil {
			return hasPointers
		}
		return pointers(x.Elt, types, depth+1)
	case *ast.ParenExpr:
		return pointers(x.X, types, depth+1)
	case *ast.StructType:
		result := noPointers
		for _, f := range x.Fields.List {
			switch pointers(f.Type, types, depth+1) {
			case hasPointers:
				return hasPointers
			case pointersUnknown:
				result = pointersUnknown
			}
		}
		return result
	case *ast.Ident:
		return namedPointers(x.Name, types, depth)
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok && id.Name == "time" && strings.HasPrefix(x.Sel.Name, "Time") {
			return hasPointers // time.Time holds a *Location
		}
	}
	return pointersUnknown
}

// namedPointers is pointers for the type named name: predeclared, or
// declared in the package (types).
func namedPointers(name string, types map[string]ast.Expr, depth int) int {
	switch name {
	case "string", "error", "any":
		return hasPointers
	case "bool", "byte", "rune", "uintptr", "int", "int8", "int16", "int32", "int64",
		"uint", "uint8", "uint16", "uint32", "uint64", "float32", "float64", "complex64", "complex128":
		return noPointers
	}
	if d, ok := types[name]; ok {
		return pointers(d, types, depth+1)
	}
	return pointersUnknown
}
