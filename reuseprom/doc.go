// Package reuseprom exports the counters of reuse pools to Prometheus: a
// Collector for long-running services that Prometheus scrapes, and a Pusher for
// batch jobs, which end before a scrape would see them and push their metrics
// to a Pushgateway instead.
//
// Register each pool by name, explicitly (nothing registers itself), and
// register the Collector with a Prometheus registry:
//
//	c := reuseprom.NewCollector()
//	if err := c.Register("requests", &requestPool); err != nil { ... }
//	reg := prometheus.NewRegistry()
//	reg.MustRegister(c)
//	http.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
//
// # Metrics
//
// Every registered pool reports, with the label pool="<name>":
//
//	reuse_pool_gets_total    counter  calls to Get (only while the pool's CountAll is set, else 0)
//	reuse_pool_puts_total    counter  values put back and kept (only while CountAll is set, else 0)
//	reuse_pool_news_total    counter  Gets that created a value because the pool was empty
//	reuse_pool_drops_total   counter  values put back and not kept (nil, refused, too large)
//
// Gets and Puts cost an add in a per-P slot on every call, so pools count them
// only when asked (reuse.Pool.CountAll); they are exported either way and read
// 0 when not counted. With them, the hit ratio over five minutes, for every
// kind of pool, is
//
//	1 - rate(reuse_pool_news_total[5m]) / rate(reuse_pool_gets_total[5m])
//
// A byte-buffer pool (bytebuf.Pool, registered with RegisterBuffers) reports
// the same four counters under the same names and label, plus its calibrated
// sizes and its retention estimate as gauges, in bytes:
//
//	reuse_buffer_pool_default_capacity_bytes  gauge    capacity of new buffers
//	reuse_buffer_pool_keep_capacity_bytes     gauge    largest capacity kept on Put
//	reuse_buffer_pool_retained_bytes          gauge    estimated bytes held by kept buffers
//	reuse_buffer_pool_calibrations_total      counter  recalibrations of those sizes
//	reuse_buffer_pool_grow_news_total         counter  arrays created for buffers that grew
//
// A Buffer that outgrows its array takes a larger one, kept or new; the new
// ones count in reuse_buffer_pool_grow_news_total, not in news, since no Get
// missed: a batch job that writes two 4 MiB Buffers in 1 KiB pieces reads 2
// gets, at most 2 news and the growths apart.
//
// The names follow the Prometheus conventions (base units, _total on
// counters); the package's tests check them with client_golang's
// testutil.CollectAndLint.
//
// # Pushing from a batch job
//
// A Pusher sends a registry's metrics to a Pushgateway under a job name and
// grouping labels. Push (HTTP PUT) replaces the whole group; Add (HTTP POST)
// replaces only the metric families it sends. Either returns an error wrapping
// ErrPush when the push fails, and never panics or exits: a batch job whose
// monitoring is down still finishes its work. Each push is bounded by a
// timeout (DefaultTimeout unless Pusher.Timeout says otherwise). Prometheus
// must scrape the Pushgateway with honor_labels: true, or the pushed job and
// instance labels are renamed exported_job and exported_instance.
//
// # Ownership
//
// The Collector holds a reference to each registered pool until it is
// unregistered, so a registered pool is never garbage: unregister pools that
// are discarded. The Collector only calls the pools' Stats method; it never
// Gets, Puts or changes a pool.
//
// # Concurrency
//
// A Collector is safe for use by multiple goroutines: pools can be registered
// and unregistered while Prometheus scrapes. Collect takes no lock that the
// pools' Get or Put take, and none that Register takes: it reads an immutable
// snapshot of the registered pools. A pool's counters are read one at a time
// while the pool is in use, so one scrape is not an atomic snapshot (gets may
// be read before a news it caused); each counter is monotonic and exact once
// the pool is quiet. A Pusher is safe for concurrent use once its fields are
// set.
//
// # Cost
//
// A scrape allocates one block per registered pool, holding all of that pool's
// metrics, and reuses the descriptors and label pairs built at registration:
// 100 pools cost 100 allocations in Collect, against 3600 for the usual
// prometheus.MustNewConstMetric collector, and a whole registry Gather of 100
// pools makes 977 allocations instead of 4477. Gathering 100 pools stays
// under the 1 ms this package promises (a test holds it to that bound;
// benchmarks/README.md has the figures). Registering
// a pool does not change its Get and Put: the Collector reads the counters
// the pool keeps anyway.
//
// # When not to pool
//
// This package measures whether pooling pays: a pool whose news are close to
// its gets (a hit ratio near 0) costs more than allocating, since every Get
// pays the pool's overhead and still allocates; a pool with many drops is
// sized for the wrong workload. See the reuse package documentation for the
// measured costs.
//
// # Version of client_golang
//
// This module requires github.com/prometheus/client_golang v1.13.0, the
// first release with the push package's PushContext, and nothing newer.
// Under minimal version selection a requirement is a floor: a program gets
// the newest version that any of its requirements names, and chooses a
// newer one by requiring it. v1.23.2 is the newest whose go.mod accepts
// Go 1.24; v1.24 needs Go 1.25 and v1.25 Go 1.26. The root reuse module
// has no dependency at all; only importers of reuseprom get client_golang.
package reuseprom
