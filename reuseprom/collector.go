package reuseprom

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"google.golang.org/protobuf/proto"

	"github.com/reuse-go/reuse"
)

// ErrName is wrapped by the error Collector.Register returns for a pool name
// that is empty, is not valid UTF-8, or is already registered.
var ErrName = errors.New("reuseprom: invalid pool name")

// Source is what the Collector reads a pool's counters from. *reuse.Pool[T]
// and *reuse.Slices[E] implement it, and so does anything else with a
// Stats() reuse.Stats method.
type Source interface {
	Stats() reuse.Stats
}

// The label every series carries: the name a pool was registered under.
const poolLabel = "pool"

// Descriptors, built once and shared by every Collector: they are immutable.
var (
	getsDesc = prometheus.NewDesc("reuse_pool_gets_total",
		"Calls to Get on the pool. reuse.Pool and reuse.Slices count them only while their "+
			"CountAll field is set (0 otherwise); bytebuf pools count every call.",
		[]string{poolLabel}, nil)
	putsDesc = prometheus.NewDesc("reuse_pool_puts_total",
		"Values put back to the pool. reuse.Pool and reuse.Slices count them only while their "+
			"CountAll field is set (0 otherwise); bytebuf pools count every call.",
		[]string{poolLabel}, nil)
	newsDesc = prometheus.NewDesc("reuse_pool_news_total",
		"Gets that created a value because the pool had none to give; a byte-buffer pool counts the "+
			"arrays its buffers grew into apart (reuse_buffer_pool_grow_news_total). "+
			"With gets counted, the hit ratio is 1 - news/gets, for every kind of pool.",
		[]string{poolLabel}, nil)
	dropsDesc = prometheus.NewDesc("reuse_pool_drops_total",
		"Values put back that the pool did not keep: nil, refused by Accept, or too large.",
		[]string{poolLabel}, nil)
)

// poolDescs are the families every registered pool reports, in the order of
// the values in a sample.
var poolDescs = [...]*prometheus.Desc{getsDesc, putsDesc, newsDesc, dropsDesc}

// Collector is a prometheus.Collector over the pools registered with it by
// name. For each pool it reports the counters reuse_pool_gets_total,
// reuse_pool_puts_total, reuse_pool_news_total and reuse_pool_drops_total
// with the label pool="<name>"; byte-buffer pools add the gauges described at
// RegisterBuffers.
//
// The zero value is an empty Collector ready to use. A Collector is safe for
// use by multiple goroutines: pools can be registered and unregistered while
// it is being scraped. It must not be copied after first use.
//
// Collecting only reads each pool's Stats; it takes no lock a pool's Get or
// Put takes.
type Collector struct {
	mu sync.Mutex // serialises Register and Unregister; Collect does not take it

	// entries is the registered pools in registration order. The slice is
	// never modified once stored: Register and Unregister store a new one, so
	// that Collect reads it without a lock.
	entries atomic.Pointer[[]*entry]
}

// entry is one registered pool.
type entry struct {
	name string
	// labels is the pool label, built once and shared by every metric the
	// pool reports: the registry only reads it.
	labels []*dto.LabelPair
	// Exactly one of src and buf is set.
	src Source
	buf BufferSource
}

// NewCollector returns an empty Collector. It is the same as new(Collector).
func NewCollector() *Collector {
	return new(Collector)
}

// Register adds a pool to c under name, which becomes the value of the pool
// label. It returns an error wrapping ErrName when name is empty, is not valid
// UTF-8 or is already registered with c. Register panics if src is nil (a nil
// interface or a nil pointer): that is a programming error.
//
// Registering does not touch the pool: counting Gets and Puts is the pool's
// own choice (its CountAll field).
func (c *Collector) Register(name string, src Source) error {
	if c == nil {
		panic("reuseprom: Collector.Register: nil *Collector")
	}
	if isNil(src) {
		panic("reuseprom: Collector.Register: nil Source")
	}
	return c.add(&entry{name: name, src: src})
}

// isNil reports whether v is a nil interface or holds a nil pointer, map,
// slice, func or channel.
func isNil(v any) bool {
	if v == nil {
		return true
	}
	switch r := reflect.ValueOf(v); r.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface, reflect.UnsafePointer:
		return r.IsNil()
	}
	return false
}

func (c *Collector) add(e *entry) error {
	if e.name == "" {
		return fmt.Errorf("%w: empty name", ErrName)
	}
	if !utf8.ValidString(e.name) {
		return fmt.Errorf("%w: %q is not valid UTF-8", ErrName, e.name)
	}
	e.labels = []*dto.LabelPair{{Name: proto.String(poolLabel), Value: proto.String(e.name)}}

	c.mu.Lock()
	defer c.mu.Unlock()
	var old []*entry
	if p := c.entries.Load(); p != nil {
		old = *p
	}
	for _, o := range old {
		if o.name == e.name {
			return fmt.Errorf("%w: %q is already registered", ErrName, e.name)
		}
	}
	next := make([]*entry, len(old), len(old)+1)
	copy(next, old)
	next = append(next, e)
	c.entries.Store(&next)
	return nil
}

// Unregister removes the pool registered under name and reports whether there
// was one. Its series disappear from the next scrape.
func (c *Collector) Unregister(name string) bool {
	if c == nil {
		panic("reuseprom: Collector.Unregister: nil *Collector")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.entries.Load()
	if p == nil {
		return false
	}
	for i, e := range *p {
		if e.name == name {
			next := make([]*entry, 0, len(*p)-1)
			next = append(next, (*p)[:i]...)
			next = append(next, (*p)[i+1:]...)
			c.entries.Store(&next)
			return true
		}
	}
	return false
}

// Len returns the number of pools registered with c.
func (c *Collector) Len() int {
	if c == nil {
		panic("reuseprom: Collector.Len: nil *Collector")
	}
	if p := c.entries.Load(); p != nil {
		return len(*p)
	}
	return 0
}

// Describe sends the descriptors of every family c can report, whether or not
// a pool of that kind is registered yet. It implements prometheus.Collector.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	if c == nil {
		panic("reuseprom: Collector.Describe: nil *Collector")
	}
	if ch == nil {
		panic("reuseprom: Collector.Describe: nil channel") // a send on it would block forever
	}
	for _, d := range poolDescs {
		ch <- d
	}
	for _, d := range bufferDescs {
		ch <- d
	}
}

// Collect reads the Stats of every registered pool and sends its metrics. It
// implements prometheus.Collector.
//
// It allocates one block per pool per scrape, holding all of that pool's
// metrics, and reuses the descriptors and label pairs built at registration.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	if c == nil {
		panic("reuseprom: Collector.Collect: nil *Collector")
	}
	if ch == nil {
		panic("reuseprom: Collector.Collect: nil channel") // a send on it would block forever
	}
	p := c.entries.Load()
	if p == nil {
		return
	}
	for _, e := range *p {
		if e.buf != nil {
			collectBuffers(ch, e)
			continue
		}
		s := e.src.Stats()
		b := new(poolBlock)
		b.set(e, s)
		for i := range b.m {
			ch <- &b.m[i]
		}
	}
}

// poolBlock is one pool's metrics for one scrape, allocated at once.
type poolBlock struct {
	m [len(poolDescs)]counter
	c [len(poolDescs)]dto.Counter
}

func (b *poolBlock) set(e *entry, s reuse.Stats) {
	vals := [len(poolDescs)]uint64{s.Gets, s.Puts, s.News, s.Drops}
	for i, v := range vals {
		b.m[i] = counter{desc: poolDescs[i], labels: e.labels, dto: &b.c[i], v: float64(v)}
		b.c[i].Value = &b.m[i].v
	}
}

// counter is a prometheus.Metric for a counter value read at scrape time,
// like the one prometheus.MustNewConstMetric builds but without allocating
// its label pairs and protobuf messages one by one.
type counter struct {
	desc   *prometheus.Desc
	labels []*dto.LabelPair
	dto    *dto.Counter // in the same block, its Value pointing at v
	v      float64
}

func (m *counter) Desc() *prometheus.Desc { return m.desc }

func (m *counter) Write(out *dto.Metric) error {
	out.Label = m.labels
	out.Counter = m.dto
	return nil
}

// gauge is the gauge counterpart of counter.
type gauge struct {
	desc   *prometheus.Desc
	labels []*dto.LabelPair
	dto    *dto.Gauge
	v      float64
}

func (m *gauge) Desc() *prometheus.Desc { return m.desc }

func (m *gauge) Write(out *dto.Metric) error {
	out.Label = m.labels
	out.Gauge = m.dto
	return nil
}
