package other

// The test build puts a value that no Get of its function took: the pool
// rewrite cannot keep a pointer here, so it must leave the pool alone. The
// file imports nothing, so that poolvet -fix loads little in the test.
func init() { scratch.Put(make([]byte, 0, 8192)) }
