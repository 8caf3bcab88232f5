package reuseprom

import (
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/bytebuf"
)

// BufferSource is what the Collector reads a byte-buffer pool's counters and
// calibration from. *bytebuf.Pool implements it.
type BufferSource interface {
	Stats() bytebuf.Stats
}

// Descriptors of the byte-buffer pools' own families.
var (
	defaultCapDesc = prometheus.NewDesc("reuse_buffer_pool_default_capacity_bytes",
		"Capacity in bytes the pool gives the buffers it creates, as last calibrated.",
		[]string{poolLabel}, nil)
	keepCapDesc = prometheus.NewDesc("reuse_buffer_pool_keep_capacity_bytes",
		"Largest capacity in bytes of a buffer the pool keeps when it is put back, as last calibrated.",
		[]string{poolLabel}, nil)
	retainedDesc = prometheus.NewDesc("reuse_buffer_pool_retained_bytes",
		"Estimated bytes held by the buffers the pool made and the arrays it keeps.",
		[]string{poolLabel}, nil)
	calibrationsDesc = prometheus.NewDesc("reuse_buffer_pool_calibrations_total",
		"Times the pool recomputed its sizes from the lengths written into its buffers.",
		[]string{poolLabel}, nil)
	growNewsDesc = prometheus.NewDesc("reuse_buffer_pool_grow_news_total",
		"Arrays the pool created for buffers that outgrew theirs, having none of the size kept. "+
			"Not Gets: reuse_pool_news_total and the hit ratio leave them out.",
		[]string{poolLabel}, nil)
)

// bufferGauges are the gauge families of a byte-buffer pool, in the order of
// bufferBlock.g.
var bufferGauges = [...]*prometheus.Desc{defaultCapDesc, keepCapDesc, retainedDesc}

// bufferDescs are all the families a byte-buffer pool reports besides the
// pool families.
var bufferDescs = [...]*prometheus.Desc{defaultCapDesc, keepCapDesc, retainedDesc, calibrationsDesc, growNewsDesc}

// RegisterBuffers adds a byte-buffer pool to c under name. Besides the four
// counters every pool reports (under the same names, so that sums over pools
// include it), it reports, with the same pool label:
//
//	reuse_buffer_pool_default_capacity_bytes  gauge    capacity of the buffers it creates
//	reuse_buffer_pool_keep_capacity_bytes     gauge    largest capacity it keeps on Put
//	reuse_buffer_pool_retained_bytes          gauge    estimated bytes it holds
//	reuse_buffer_pool_calibrations_total      counter  recalibrations of those sizes
//	reuse_buffer_pool_grow_news_total         counter  arrays created for buffers that grew
//
// Its reuse_pool_news_total counts the Gets that created a Buffer, not the
// arrays growth created, so that 1 - news/gets is its hit ratio as for
// every other pool.
//
// A bytebuf.Pool always counts every Get and Put (see bytebuf.Stats), so
// the hit ratio needs no CountAll field.
//
// Names share one namespace with Register: the errors and the panic are
// Register's.
func (c *Collector) RegisterBuffers(name string, src BufferSource) error {
	if c == nil {
		panic("reuseprom: Collector.RegisterBuffers: nil *Collector")
	}
	if isNil(src) {
		panic("reuseprom: Collector.RegisterBuffers: nil BufferSource")
	}
	return c.add(&entry{name: name, buf: src})
}

// bufferBlock is one byte-buffer pool's metrics for one scrape, allocated at
// once.
type bufferBlock struct {
	pool poolBlock
	g    [len(bufferGauges)]gauge
	gd   [len(bufferGauges)]dto.Gauge
	cal  [2]counter // calibrations, grow news
	cald [2]dto.Counter
}

func collectBuffers(ch chan<- prometheus.Metric, e *entry) {
	s := e.buf.Stats()
	b := new(bufferBlock)
	b.pool.set(e, reuse.Stats{Gets: s.Gets, Puts: s.Puts, News: s.News, Drops: s.Drops})
	for i := range b.pool.m {
		ch <- &b.pool.m[i]
	}
	vals := [len(bufferGauges)]float64{float64(s.DefaultCap), float64(s.KeepCap), float64(s.RetainedBytes)}
	for i, v := range vals {
		b.g[i] = gauge{desc: bufferGauges[i], labels: e.labels, dto: &b.gd[i], v: v}
		b.gd[i].Value = &b.g[i].v
		ch <- &b.g[i]
	}
	for i, c := range [2]struct {
		d *prometheus.Desc
		v uint64
	}{{calibrationsDesc, s.Calibrations}, {growNewsDesc, s.GrowNews}} {
		b.cal[i] = counter{desc: c.d, labels: e.labels, dto: &b.cald[i], v: float64(c.v)}
		b.cald[i].Value = &b.cal[i].v
		ch <- &b.cal[i]
	}
}
