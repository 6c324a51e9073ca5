package core

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestAddDurationsRefusesOverflow(t *testing.T) {
	sum, err := AddDurations(time.Second, 2*time.Second)
	assert.NoError(t, err)
	assert.Equal(t, 3*time.Second, sum)

	_, err = AddDurations(1500000*time.Hour, 1500000*time.Hour, time.Second)
	assert.ErrorIs(t, err, ErrOverflow)
	_, err = AddDurations(math.MinInt64, -1)
	assert.ErrorIs(t, err, ErrOverflow)
	sum, err = AddDurations(math.MaxInt64, -1, 1)
	assert.NoError(t, err, "an intermediate sum that fits is fine")
	assert.Equal(t, time.Duration(math.MaxInt64), sum)
}

func TestMulDurationRefusesOverflow(t *testing.T) {
	p, err := MulDuration(10*time.Second, 2)
	assert.NoError(t, err)
	assert.Equal(t, 20*time.Second, p)

	_, err = MulDuration(1500000*time.Hour, 2)
	assert.ErrorIs(t, err, ErrOverflow)
	_, err = MulDuration(math.MinInt64, -1)
	assert.ErrorIs(t, err, ErrOverflow)
	p, err = MulDuration(time.Nanosecond, math.MaxInt64)
	assert.NoError(t, err)
	assert.Equal(t, time.Duration(math.MaxInt64), p)
}
