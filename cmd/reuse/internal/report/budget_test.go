package report

import (
	"testing"
	"time"
)

func TestBudgetRound(t *testing.T) {
	tests := []struct {
		name   string
		budget time.Duration
		left   int
		want   time.Duration
	}{
		{"no budget", 0, 100, 15 * time.Millisecond},
		{"ample", time.Hour, 100, 15 * time.Millisecond},
		{"tight", 100 * 15 * time.Millisecond, 100, 10 * time.Millisecond}, // 15 ms per round of a variant, which costs 1.5 rounds
		{"exhausted", time.Nanosecond, 100, 2 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &budget{opt: Options{Round: 15 * time.Millisecond, Rounds: 9, Budget: tt.budget}, start: time.Now(), left: tt.left}
			got := b.round(3)
			// Allow for the time elapsed since start.
			if got > tt.want || got < tt.want-time.Millisecond {
				t.Errorf("round() = %v, want %v", got, tt.want)
			}
			if b.left != tt.left-3 {
				t.Errorf("left = %d after a pass over a case of 3 variants, want %d", b.left, tt.left-3)
			}
		})
	}
}
