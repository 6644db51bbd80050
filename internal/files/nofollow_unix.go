//go:build unix

package files

import "syscall"

// noFollow makes opening a file refuse a symbolic link at its name.
const noFollow = syscall.O_NOFOLLOW
