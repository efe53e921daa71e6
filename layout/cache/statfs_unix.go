//go:build linux || darwin || freebsd

package cache

import "syscall"

// fsBytes returns the size of the file system that holds dir.
func fsBytes(dir string) (int64, bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return int64(st.Blocks) * int64(st.Bsize), true
}
