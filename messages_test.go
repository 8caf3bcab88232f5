package reuse_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestMessageFormat scans the library's non-test source (the module less its
// commands, cmd/ and tools/) for the messages of panics and errors,
// and checks their form:
//
//   - a panic names its package and what was called wrongly: "pkg:
//     Type.Method: what" or "pkg: Func: what" ("pkg: internal error: what"
//     for a broken invariant);
//   - a fmt.Errorf message is "pkg: Func: what", or starts with a wrapped
//     sentinel ("%w: what") or a package name given at run time ("%s: ...",
//     the codecs');
//   - an errors.New sentinel is "pkg: what", or has no prefix at all when
//     the errors wrapping it carry one; it never names another package.
//
// Only the string literal a message starts with is checked.
func TestMessageFormat(t *testing.T) {
	var checked int
	pending := map[string]bool{}
	for f := range messagesPending {
		pending[f] = true
	}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || isModule(path) || messagesTools[filepath.ToSlash(path)]) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		pkg := f.Name.Name
		if pkg == "main" {
			pkg = filepath.Base(filepath.Dir(path))
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			kind := callKind(call)
			if kind == "" {
				return true
			}
			msg, ok := leadingLiteral(call.Args[0])
			if !ok {
				return true
			}
			checked++
			if bad := checkMessage(kind, pkg, msg); bad != "" {
				if messagesPending[filepath.ToSlash(path)] != "" {
					delete(pending, filepath.ToSlash(path))
					return true
				}
				t.Errorf("%s: %s(%q): %s", fset.Position(call.Pos()), kind, msg, bad)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for f := range pending {
		t.Errorf("%s is listed in messagesPending but its messages are all in form: remove it from the list", f)
	}
	if checked < 20 {
		t.Errorf("checked %d messages, want many more: is the scan finding the source?", checked)
	}
}

// messagesTools are the directories of commands (cmd/, and tools/ with the
// development programs), whose messages are for a person at a terminal, not
// for a program's error handling.
var messagesTools = map[string]bool{"cmd": true, "tools": true}

// messagesPending lists files whose messages are not yet in form, with the
// area that owns them; the test fails once a listed file is clean, so the
// list only shrinks.
var messagesPending = map[string]string{}

// isModule reports whether dir holds a nested module, which has its own
// tests.
func isModule(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "go.mod"))
	return err == nil
}

// callKind returns "panic", "errors.New" or "fmt.Errorf" for those calls,
// and "" for any other.
func callKind(call *ast.CallExpr) string {
	switch fn := call.Fun.(type) {
	case *ast.Ident:
		if fn.Name == "panic" {
			return "panic"
		}
	case *ast.SelectorExpr:
		if x, ok := fn.X.(*ast.Ident); ok {
			switch x.Name + "." + fn.Sel.Name {
			case "errors.New":
				return "errors.New"
			case "fmt.Errorf":
				return "fmt.Errorf"
			}
		}
	}
	return ""
}

// leadingLiteral returns the string literal a message starts with: the
// literal itself, the left end of a concatenation, or the format of a
// fmt.Sprintf.
func leadingLiteral(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			s, err := strconv.Unquote(e.Value)
			return s, err == nil
		}
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			return leadingLiteral(e.X)
		}
	case *ast.CallExpr:
		if sel, ok := e.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Sprintf" && len(e.Args) > 0 {
			return leadingLiteral(e.Args[0])
		}
	case *ast.ParenExpr:
		return leadingLiteral(e.X)
	}
	return "", false
}

var (
	// A panic names what was called: "Type.Method" or "Func".
	panicForm = regexp.MustCompile(`^([a-z][a-z0-9]*): ((\*?[A-Z][A-Za-z0-9]*\.)?[A-Za-z][A-Za-z0-9]*|internal error): (\S|$)`)
	// An error returned by a function names it too.
	errorfForm = regexp.MustCompile(`^([a-z][a-z0-9]*): (\*?[A-Z][A-Za-z0-9]*\.)?[A-Za-z][A-Za-z0-9]*: `)
	// A sentinel is "pkg: what", or "what" with no prefix.
	sentinelForm = regexp.MustCompile(`^(?:([a-z][a-z0-9]*): )?[a-z]`)
)

// checkMessage returns what is wrong with msg, a message of kind in package
// pkg, or "".
func checkMessage(kind, pkg, msg string) string {
	var m []string
	switch kind {
	case "panic":
		if strings.HasPrefix(msg, "%s: ") {
			return "" // the package name is given at run time
		}
		m = panicForm.FindStringSubmatch(msg)
		if m == nil {
			return `want "` + pkg + `: Type.Method: what" or "` + pkg + `: Func: what"`
		}
	case "errors.New":
		m = sentinelForm.FindStringSubmatch(msg)
		if m == nil {
			return `want "` + pkg + `: what"`
		}
	case "fmt.Errorf":
		if strings.HasPrefix(msg, "%w") || strings.HasPrefix(msg, "%s: ") {
			return "" // the wrapped sentinel, or the caller, gives the prefix
		}
		m = errorfForm.FindStringSubmatch(msg)
		if m == nil {
			return `want "` + pkg + `: Func: what" or "%w: what"`
		}
	}
	if m[1] != "" && m[1] != pkg {
		return "names package " + m[1] + ", want " + pkg
	}
	return ""
}
