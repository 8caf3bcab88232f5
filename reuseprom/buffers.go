package reuseprom

import (
	"github.com/prometheus/client_golang/prometheus"
)

// Descriptors of the byte-buffer pools' own families.
var (
	defaultCapDesc = prometheus.NewDesc("reuse_buffer_pool_default_capacity_bytes",
		"Capacity in bytes of the buffers the pool creates, as last calibrated.",
		[]string{poolLabel}, nil)
	keepCapDesc = prometheus.NewDesc("reuse_buffer_pool_keep_capacity_bytes",
		"Largest capacity in bytes of a buffer the pool keeps when it is put back, as last calibrated.",
		[]string{poolLabel}, nil)
	retainedDesc = prometheus.NewDesc("reuse_buffer_pool_retained_bytes",
		"Estimated bytes held by the buffers the pool keeps.",
		[]string{poolLabel}, nil)
	calibrationsDesc = prometheus.NewDesc("reuse_buffer_pool_calibrations_total",
		"Times the pool recalibrated its sizes from the sizes its buffers reached.",
		[]string{poolLabel}, nil)
)

var bufferDescs = [...]*prometheus.Desc{defaultCapDesc, keepCapDesc, retainedDesc, calibrationsDesc}

// BufferSource is a stand-in until bytebuf lands.
type BufferSource interface{ bufferStats() }

func collectBuffers(ch chan<- prometheus.Metric, e *entry) {}
