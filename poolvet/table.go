package poolvet

import "go/types"

// A kind says what a release operation does with its value.
type kind uint8

const (
	// put gives a value back to a pool: the caller must not use it again,
	// and must not give it back a second time.
	put kind = iota + 1
	// closeHandle ends a pooled handle's loan (a codec Writer or Reader, a
	// bufiopool Reader or Writer): the handle must not be used afterwards.
	// Closing twice is documented to return an error, so it is not
	// reported.
	closeHandle
	// unref drops one reference to a reference-counted value: the Put
	// happens only when a counter in it reaches zero (see refcount.go).
	// Other owners may still use the value, and drop it again.
	unref
)

// A rule describes one release method: which argument it releases (0 is
// the receiver) and how.
type rule struct {
	arg  int
	kind kind
}

const module = "github.com/reuse-go/reuse"

// codecPackages are the packages whose Writer and Reader are pooled codec
// handles given back by Close. When the codec engine moves to a public
// package, add its path here.
var codecPackages = []string{
	module + "/gzpool",
	module + "/zlibpool",
	module + "/flatepool",
	module + "/kgzip",
	module + "/codec",
}

// releases maps "package path.Type.Method" to the rule of a method that
// releases a pooled value. Generic types are matched by their origin.
var releases = releaseRules()

func releaseRules() map[string]rule {
	m := map[string]rule{
		"sync.Pool.Put":                    {1, put},
		module + ".Pool.Put":               {1, put},
		module + ".Slices.Put":             {1, put},
		module + "/bytebuf.Pool.Put":       {1, put},
		module + "/jsonpool.Values.Put":    {1, put},
		module + "/bufiopool.Reader.Close": {0, closeHandle},
		module + "/bufiopool.Writer.Close": {0, closeHandle},
	}
	for _, p := range codecPackages {
		m[p+".Writer.Close"] = rule{0, closeHandle}
		m[p+".Reader.Close"] = rule{0, closeHandle}
	}
	return m
}

// aliasMethods are methods whose result shares memory with the receiver
// (a slice of its buffer), so a use of the result is a use of the receiver.
var aliasMethods = map[string]bool{
	"Bytes":           true,
	"AvailableBuffer": true,
	"Peek":            true,
}

// methodKey returns "package path.Type.Method" for a method, or "" for a
// function that is not a method of a named type.
func methodKey(f *types.Func) string {
	f = f.Origin()
	sig, ok := f.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return ""
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok {
		return ""
	}
	obj := n.Origin().Obj()
	if obj.Pkg() == nil {
		return ""
	}
	return obj.Pkg().Path() + "." + obj.Name() + "." + f.Name()
}
