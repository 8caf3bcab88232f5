// Package misusetest checks that a package's misuse panics name it: it calls
// every exported method of the package's exported types on a nil pointer and
// on a zero value, with zero arguments, and requires each call to return or
// to panic with a message "pkg: Type.Method: what". A bare nil dereference,
// an index out of range or a message that names nothing fails.
//
// Nested modules use it too: they are under the root module's path, so Go's
// internal rule lets them import it.
package misusetest

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// Timeout is how long a call may take before it counts as blocked.
const Timeout = 2 * time.Second

// Check calls every exported method of the types of values, which are nil
// pointers such as (*bytebuf.Pool)(nil), one for each exported type that is
// not an interface in the package whose source is in the current directory
// (a generic type instantiated with any type argument). A method is called:
//
//   - on the nil pointer, unless it has a value receiver (the caller's own
//     dereference then panics before the method runs);
//   - on a pointer to a new zero value.
//
// Each argument is the zero value of its type; a variadic method gets none.
// On the nil pointer the method is called a second time with each pointer
// argument pointing to a new zero value, so that a method that returns early
// on a nil argument (Put(nil)) still meets its nil receiver.
// A call passes if it returns within Timeout, or panics with a message
// starting "pkg: Type.Method: ", where pkg is the package's name. except
// maps "nil Type.Method" or "zero Type.Method" to the reason the call is
// not made, and "promoted Type" to the reason the methods Type promotes from
// an embedded field are not called; a reason that matches no method fails,
// so the list only shrinks. Check returns the number of calls that failed.
func Check(t testing.TB, values []any, except map[string]string) int {
	t.Helper()
	pkg, declared, methods := exportedTypes(t)
	c := &checker{t: t, pkg: pkg, methods: methods, except: except, listed: map[string]bool{}, used: map[string]bool{}}
	for _, v := range values {
		c.checkType(v)
	}
	t.Logf("%s: %d calls on nil and zero receivers, %d failed", pkg, c.calls, c.failed)
	for _, name := range declared {
		if !c.listed[name] {
			t.Errorf("%s: exported type %s is not in the list given to Check", pkg, name)
		}
	}
	for key, reason := range except {
		if !c.used[key] {
			t.Errorf("%s: exception %q (%s) matches no method", pkg, key, reason)
		}
	}
	return c.failed
}

// checker is the state of one Check: the package's name and declared
// methods, the exceptions, the types listed and the exceptions used so far,
// and the calls made and failed.
type checker struct {
	t             testing.TB
	pkg           string
	methods       map[string]bool
	except        map[string]string
	listed, used  map[string]bool
	calls, failed int
}

// checkType calls the methods of v's type (see Check), v being a nil
// pointer, and skips those it promotes from an embedded field when except
// says so.
func (c *checker) checkType(v any) {
	c.t.Helper()
	pt := reflect.TypeOf(v)
	if pt == nil || pt.Kind() != reflect.Pointer || !reflect.ValueOf(v).IsNil() {
		c.t.Fatalf("misusetest: Check: %T is not a nil pointer", v)
	}
	et := pt.Elem()
	name, _, _ := strings.Cut(et.Name(), "[")
	c.listed[name] = true
	for i := range pt.NumMethod() {
		m := pt.Method(i)
		if !c.methods[name+"."+m.Name] {
			if _, ok := c.except["promoted "+name]; ok {
				c.used["promoted "+name] = true
				continue
			}
		}
		_, byValue := et.MethodByName(m.Name)
		for _, zero := range []bool{false, true} {
			if !zero && byValue {
				continue
			}
			c.checkCall(pt, m, name, zero)
		}
	}
}

// checkCall calls m of type name (pointer type pt) on the nil pointer, or
// on a pointer to a new zero value if zero, unless except lists it; on the
// nil pointer a second time with pointer arguments filled, when it has any.
func (c *checker) checkCall(pt reflect.Type, m reflect.Method, name string, zero bool) {
	c.t.Helper()
	call := name + "." + m.Name
	key := "nil " + call
	recv := reflect.Zero(pt)
	if zero {
		key = "zero " + call
		recv = reflect.New(pt.Elem())
	}
	if _, ok := c.except[key]; ok {
		c.used[key] = true
		return
	}
	for _, filled := range []bool{false, true} {
		if filled && (zero || !hasPointerArg(m.Func.Type())) {
			continue
		}
		c.calls++
		if msg := callOnce(m, recv, filled, c.pkg, name); msg != "" {
			with := ""
			if filled {
				with = " with non-nil pointer arguments"
			}
			c.t.Errorf("%s: %s on %s%s: %s", c.pkg, call, receiver(zero, name), with, msg)
			c.failed++
		}
	}
}

// receiver names the receiver of a call: a zero value or the nil pointer.
func receiver(zero bool, name string) string {
	if zero {
		return "a zero " + name
	}
	return "a nil *" + name
}

// hasPointerArg reports whether a method's func type, receiver first, has
// a pointer argument.
func hasPointerArg(ft reflect.Type) bool {
	for i := 1; i < ft.NumIn(); i++ {
		if ft.In(i).Kind() == reflect.Pointer {
			return true
		}
	}
	return false
}

// callOnce calls m on recv with zero arguments (filled: with pointers to
// new zero values for pointer arguments), on a goroutine of its own so that
// a call that blocks fails instead of hanging, and returns what is wrong
// with the outcome, or "".
func callOnce(m reflect.Method, recv reflect.Value, filled bool, pkg, typ string) string {
	ft := m.Func.Type()
	args := []reflect.Value{recv}
	n := ft.NumIn()
	if ft.IsVariadic() {
		n--
	}
	for i := 1; i < n; i++ {
		if in := ft.In(i); filled && in.Kind() == reflect.Pointer {
			args = append(args, reflect.New(in.Elem()))
		} else {
			args = append(args, reflect.Zero(in))
		}
	}
	done := make(chan string, 1)
	go func() {
		defer func() {
			r := recover()
			if r == nil {
				done <- ""
				return
			}
			msg := fmt.Sprint(r) // an error's Error, a string itself
			if want := pkg + ": " + typ + "." + m.Name + ": "; !strings.HasPrefix(msg, want) {
				done <- fmt.Sprintf("panic %q does not start %q", msg, want)
				return
			}
			done <- ""
		}()
		m.Func.Call(args)
	}()
	select {
	case msg := <-done:
		return msg
	case <-time.After(Timeout):
		return fmt.Sprintf("blocked for %v", Timeout)
	}
}

// exportedTypes returns the name of the package in the current directory,
// its exported types that are neither interfaces nor aliases, and the
// methods it declares, as "Type.Method", from the files that the current
// build context selects.
func exportedTypes(t testing.TB) (string, []string, map[string]bool) {
	t.Helper()
	bp, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatalf("misusetest: %v", err)
	}
	var names []string
	methods := map[string]bool{}
	fset := token.NewFileSet()
	for _, file := range slices.Concat(bp.GoFiles, bp.CgoFiles) {
		f, err := parser.ParseFile(fset, filepath.Join(bp.Dir, file), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("misusetest: %v", err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
				methods[recvName(fd.Recv.List[0].Type)+"."+fd.Name.Name] = true
				continue
			}
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, s := range g.Specs {
				ts := s.(*ast.TypeSpec)
				if _, iface := ts.Type.(*ast.InterfaceType); iface || ts.Assign.IsValid() || !ts.Name.IsExported() {
					continue
				}
				names = append(names, ts.Name.Name)
			}
		}
	}
	return bp.Name, names, methods
}

// recvName returns the name of a receiver's type: T for T, *T, T[E] or *T[E].
func recvName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}
