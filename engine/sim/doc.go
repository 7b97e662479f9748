// Package sim is a cycle-level simulator of one GPU streaming
// multiprocessor's warp schedulers.
package sim
