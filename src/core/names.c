/* SPDX-License-Identifier: MIT */
/*
 * Names of the model's enumerations, the diagnostic format, the exit
 * statuses, the version, and the option-struct rule. Pure.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "core/text.h"
#include "core/model.h"

const char *lf_effect_name(enum lf_effect effect)
{
	switch (effect) {
	case LF_ALLOW:
		return "allow";
	case LF_ASK:
		return "ask";
	case LF_DENY:
		return "deny";
	}
	return "?";
}

const char *lf_capability_name(enum lf_capability cap)
{
	switch (cap) {
	case LF_CAP_READ:
		return "read";
	case LF_CAP_WRITE:
		return "write";
	case LF_CAP_DELETE:
		return "delete";
	case LF_CAP_BASH:
		return "bash";
	}
	return "?";
}

const char *lf_layer_name(enum lf_layer layer)
{
	switch (layer) {
	case LF_LAYER_MANAGED:
		return "managed";
	case LF_LAYER_USER:
		return "user";
	case LF_LAYER_PROJECT:
		return "project";
	case LF_LAYER_AGENT:
		return "agent";
	case LF_LAYER_LOCAL:
		return "local";
	}
	return "?";
}

const char *lf_severity_name(enum lf_severity severity)
{
	switch (severity) {
	case LF_SEVERITY_NOTE:
		return "note";
	case LF_SEVERITY_WARNING:
		return "WARNING";
	case LF_SEVERITY_ERROR:
		return "error";
	}
	return "?";
}

int lf_diag_format(const struct lf_diag *diag, char *buf, size_t size)
{
	size_t n = 0;

	if (buf && size > 0)
		buf[0] = '\0';
	if (!diag)
		return 0;
	/* snprintf only formats into memory; a NULL buffer just measures. */
	if (diag->file[0]) {
		/* A file's name is text from outside: one line, escaped. */
		char *esc = lf_text_clean(diag->file) ? NULL : lf_text_escape(diag->file);
		int w = snprintf(size ? buf : NULL, size, "%s:%u:%u: %s",
				 esc			     ? esc
				 : lf_text_clean(diag->file) ? diag->file
							     : "?",
				 diag->line, diag->column, diag->message);

		free(esc);
		return w;
	}
	/* Every line is landfence speaking. */
	for (const char *line = diag->message;;) {
		const char *end = strchrnul(line, '\n');
		int w = snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0,
				 "%slandfence: %.*s", n ? "\n" : "", (int)(end - line), line);

		if (w < 0)
			return w;
		n += (size_t)w;
		if (!*end || !end[1])
			break;
		line = end + 1;
	}
	return (int)n;
}

int lf_exit_status(int err)
{
	switch (err) {
	case 0:
		return 0;
	case -EINVAL:
	case -EPERM:
		return 2;
	case -ENOENT:
		return 127;
	case -EACCES:
		return 126;
	default:
		return 125;
	}
}

int lf_exit_status_wait(int wait_status)
{
	if (WIFEXITED(wait_status))
		return WEXITSTATUS(wait_status);
	if (WIFSIGNALED(wait_status))
		return 128 + WTERMSIG(wait_status);
	return 125;
}

const char *lf_version(int *major, int *minor, int *patch)
{
	if (major && minor && patch) {
		*major = LANDFENCE_VERSION_MAJOR;
		*minor = LANDFENCE_VERSION_MINOR;
		*patch = LANDFENCE_VERSION_PATCH;
	}
	return LANDFENCE_VERSION_STRING;
}

int lf_opts_copy(void *dst, size_t dst_size, const void *src, size_t src_size)
{
	const unsigned char *s = src;

	memset(dst, 0, dst_size);
	/* A size that does not even cover the size field is a caller that
	 * forgot to set it: refused, never guessed. */
	if (!src || src_size < sizeof(size_t))
		return -EINVAL;
	for (size_t i = dst_size; i < src_size; i++)
		if (s[i])
			return -EINVAL; /* a field this library does not know, in use */
	memcpy(dst, src, src_size < dst_size ? src_size : dst_size);
	return 0;
}

void lf_text(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
}

int lf_grow(void **v, size_t *cap, size_t n, size_t size)
{
	size_t ncap;
	void *nv;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 16;
	nv = reallocarray(*v, ncap, size);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = ncap;
	return 0;
}

int lf_diag_set(struct lf_diag *diag, const char *file, unsigned line, unsigned column,
		const char *fmt, ...)
{
	va_list ap;

	if (!diag)
		return -EINVAL;
	snprintf(diag->file, sizeof(diag->file), "%s", file ? file : "");
	diag->line = line;
	diag->column = column;
	va_start(ap, fmt);
	vsnprintf(diag->message, sizeof(diag->message), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

const char *lf_access_name(unsigned access)
{
	switch (access & (LF_ACCESS_RO | LF_ACCESS_RW)) {
	case LF_ACCESS_RO:
		return "read";
	case LF_ACCESS_RW:
		return "write";
	case LF_ACCESS_RO | LF_ACCESS_RW:
		return "read+write";
	}
	return "none";
}
