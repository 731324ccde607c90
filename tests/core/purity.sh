#!/bin/sh
# SPDX-License-Identifier: MIT
# The pure core (src/core) must not import any I/O, process, environment or
# exit symbol: fails when `nm -u` on liblf_core.a shows one.
# Usage: purity.sh path/to/liblf_core.a
set -u
lib=${1:?usage: purity.sh LIBLF_CORE_A}
NM=${NM:-nm}

if [ ! -f "$lib" ]; then
	echo "purity: $lib: no such archive" >&2
	exit 1
fi

# Symbols a pure library has no business importing. Versioned and fortified
# variants (open64, __open_2, __printf_chk, __xstat ...) are covered by the
# patterns below.
forbidden='^(__)?(open|open64|openat|openat64|creat|creat64|close|read|pread|pread64|readv|write|pwrite|pwrite64|writev|lseek|lseek64|dup|dup2|dup3|pipe|pipe2|fcntl|fcntl64|ioctl|mmap|mmap64|munmap|mprotect|fopen|fopen64|fdopen|freopen|fclose|fread|fwrite|fgets|fputs|fputc|fgetc|getc|putc|getchar|putchar|puts|gets|printf|fprintf|vprintf|vfprintf|dprintf|vdprintf|perror|scanf|fscanf|vscanf|vfscanf|fflush|setvbuf|stat|stat64|lstat|lstat64|fstat|fstat64|fstatat|fstatat64|statx|xstat|xstat64|lxstat|lxstat64|fxstat|fxstat64|fxstatat|fxstatat64|access|faccessat|realpath|readlink|readlinkat|opendir|fdopendir|readdir|readdir64|closedir|scandir|mkdir|mkdirat|rmdir|unlink|unlinkat|rename|renameat|chdir|fchdir|getcwd|chmod|fchmod|chown|symlink|link|truncate|ftruncate|syscall|fork|vfork|clone|clone3|execve|execv|execvp|execvpe|execl|execlp|execle|fexecve|execveat|posix_spawn|posix_spawnp|system|popen|pclose|wait|waitpid|waitid|kill|raise|signal|sigaction|prctl|socket|socketpair|connect|bind|listen|accept|accept4|send|sendto|sendmsg|recv|recvfrom|recvmsg|getenv|secure_getenv|setenv|unsetenv|putenv|clearenv|exit|_exit|_Exit|abort|time|clock_gettime|gettimeofday|landlock_create_ruleset|landlock_add_rule|landlock_restrict_self|seccomp_init|json_loads|json_load_file)(_chk|_2|_nocancel)?$'

syms=$("$NM" -u "$lib") || {
	echo "purity: $NM -u $lib failed" >&2
	exit 1
}
# nm -u prints "archive member:" headers and "  U symbol[@version]" lines.
bad=$(printf '%s\n' "$syms" | awk '
	/:$/ { obj = $0; next }
	$1 == "U" { sym = $2; sub(/@.*/, "", sym); print obj " " sym }' |
	while read -r obj sym; do
		if printf '%s\n' "$sym" | grep -Eq "$forbidden"; then
			printf '%s imports %s\n' "$obj" "$sym"
		fi
	done)

count=$(printf '%s\n' "$syms" | grep -c ' U ' || true)
if [ -n "$bad" ]; then
	echo "purity: the core imports I/O or process symbols:" >&2
	printf '%s\n' "$bad" >&2
	exit 1
fi
echo "purity: $lib is pure ($count imported symbols checked)"
exit 0
