/* SPDX-License-Identifier: MIT */
/*
 * The Claude Code PreToolUse hook (src/cli/hook.c). Input: a hook payload.
 *
 * The payload-to-answer logic lives in the subcommand itself, which reads
 * standard input and writes standard output, so the harness calls
 * lf_cmd_hook() in-process with fd 0 and fd 1 on memfds, a fixed policy
 * (-p) and a fixed project (-C) in a private temporary directory. Every
 * "/work/proj" in the input (the project of the recorded payloads in
 * corpus/hook/) is replaced by that project's path.
 *
 * Properties:
 * - exit status 0, and the output is empty (no opinion) or exactly one
 *   well-formed PreToolUse decision;
 * - a payload that is not a JSON object without duplicate keys, or names
 *   another hook event, is denied (never allowed, never silent);
 * - a tool the hook judges (Bash, Read, Write, Edit, ...) always gets a
 *   decision;
 * - a Bash command in which the words of a simple command hold a command
 *   substitution ($(…), `…`, <(…), >(…)) is never allowed: what it prints
 *   becomes words of the command. Decided on the syntax tree
 *   (lf_shell_analyse), as the answer is: a quoted "$(" is text.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <jansson.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/shell.h"
#include "fuzz.h"

#define RECORDED_ROOT "/work/proj"

static char base[64] = "/tmp/lf-fuzz-hook.XXXXXX";
static char proj[128], policy[128], dotgit[128], config[128];
static int saved_in = -1, saved_out = -1;

static const char policy_text[] =
	"{\"version\":1,\"fallback\":\"ask\",\"rules\":["
	"{\"effect\":\"allow\",\"capability\":\"read\",\"paths\":[\"src/"
	"**\",\"notes.txt\",\"docs\"]},"
	"{\"effect\":\"deny\",\"capability\":\"read\",\"paths\":[\".env\",\"secrets/**\"]},"
	"{\"effect\":\"allow\",\"capability\":\"write\",\"paths\":[\"src/**\",\"notes.txt\"]},"
	"{\"effect\":\"deny\",\"capability\":\"write\",\"paths\":[\".git/**\"]},"
	"{\"effect\":\"allow\",\"capability\":\"bash\",\"commands\":["
	"{\"effect\":\"deny\",\"prefix\":\"git push\"},"
	"{\"effect\":\"ask\",\"glob\":\"npm run *\"},"
	"{\"effect\":\"allow\",\"exact\":\"make test\"}]}]}\n";

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return (type == FTW_DP ? rmdir(path) : unlink(path)) == 0 ? 0 : -1;
}

/* The hook writes below the configuration directory too (its cache of
 * the namespace probe's answer): the whole tree goes. */
static void cleanup(void)
{
	if (nftw(base, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
		perror(base);
}

static void setup(void)
{
	FUZZ_ASSERT(mkdtemp(base) != NULL);
	snprintf(proj, sizeof(proj), "%s/proj", base);
	snprintf(dotgit, sizeof(dotgit), "%s/proj/.git", base);
	snprintf(policy, sizeof(policy), "%s/policy.json", base);
	snprintf(config, sizeof(config), "%s/config", base);
	FUZZ_ASSERT(mkdir(proj, 0700) == 0 && mkdir(dotgit, 0700) == 0 && mkdir(config, 0700) == 0);
	int fd = open(policy, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	FUZZ_ASSERT(fd >= 0);
	FUZZ_ASSERT(write(fd, policy_text, sizeof(policy_text) - 1) ==
		    (ssize_t)(sizeof(policy_text) - 1));
	FUZZ_ASSERT(close(fd) == 0);
	/* No user layer from the machine running the harness. */
	FUZZ_ASSERT(setenv("XDG_CONFIG_HOME", config, 1) == 0);
	FUZZ_ASSERT(setenv("HOME", config, 1) == 0);
	FUZZ_ASSERT(atexit(cleanup) == 0);
	saved_in = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
	saved_out = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	FUZZ_ASSERT(saved_in >= 0 && saved_out >= 0);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	setup();
	return 0;
}

/* Copies data[0..size) into a new memfd, RECORDED_ROOT replaced by proj. */
static int payload_fd(const uint8_t *data, size_t size, char **text, size_t *len)
{
	size_t rl = strlen(RECORDED_ROOT), pl = strlen(proj);
	char *out = malloc(size / rl * pl + size + 1);
	FUZZ_ASSERT(out);
	size_t n = 0;
	for (size_t i = 0; i < size;) {
		if (size - i >= rl && memcmp(data + i, RECORDED_ROOT, rl) == 0) {
			memcpy(out + n, proj, pl);
			n += pl;
			i += rl;
		} else {
			out[n++] = (char)data[i++];
		}
	}
	out[n] = '\0';
	int fd = memfd_create("payload", MFD_CLOEXEC);
	FUZZ_ASSERT(fd >= 0);
	FUZZ_ASSERT(n == 0 || write(fd, out, n) == (ssize_t)n);
	FUZZ_ASSERT(lseek(fd, 0, SEEK_SET) == 0);
	*text = out;
	*len = n;
	return fd;
}

static size_t fd_slurp(int fd, char *buf, size_t size)
{
	FUZZ_ASSERT(lseek(fd, 0, SEEK_SET) == 0);
	size_t n = 0;
	for (;;) {
		ssize_t r = read(fd, buf + n, size - 1 - n);
		FUZZ_ASSERT(r >= 0);
		if (r == 0 || n + (size_t)r == size - 1) {
			n += (size_t)r;
			break;
		}
		n += (size_t)r;
	}
	buf[n] = '\0';
	return n;
}

/* Stops the analysis (1) at a simple command with a substituted word. */
static int subst_part(void *ctx, const struct lf_shell_part *part)
{
	(void)ctx;
	if (part->kind != LF_PART_COMMAND)
		return 0;
	for (size_t i = 0; i < part->argc; i++)
		if (part->argv[i].flags & LF_WORD_SUBST)
			return 1;
	return 0;
}

static bool judged_tool(const char *name)
{
	static const char *const tools[] = { "Bash", "Read",	  "Glob",  "Grep",
					     "Edit", "MultiEdit", "Write", "NotebookEdit" };
	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
		if (!strcmp(name, tools[i]))
			return true;
	return false;
}

/* The decision in out, or NULL for no output. Aborts on a malformed one. */
static const char *decision_parse(const char *out, json_t **keep)
{
	*keep = NULL;
	if (out[0] == '\0')
		return NULL;
	size_t len = strlen(out);
	FUZZ_ASSERT(out[len - 1] == '\n' && strchr(out, '\n') == out + len - 1);
	json_error_t err;
	json_t *root = json_loads(out, JSON_REJECT_DUPLICATES, &err);
	FUZZ_ASSERT(json_is_object(root));
	json_t *hso = json_object_get(root, "hookSpecificOutput");
	FUZZ_ASSERT(json_is_object(hso));
	json_t *ev = json_object_get(hso, "hookEventName");
	json_t *dec = json_object_get(hso, "permissionDecision");
	json_t *why = json_object_get(hso, "permissionDecisionReason");
	FUZZ_ASSERT(json_is_string(ev) && !strcmp(json_string_value(ev), "PreToolUse"));
	FUZZ_ASSERT(json_is_string(why));
	FUZZ_ASSERT(json_is_string(dec));
	const char *d = json_string_value(dec);
	FUZZ_ASSERT(!strcmp(d, "allow") || !strcmp(d, "ask") || !strcmp(d, "deny"));
	*keep = root;
	return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > FUZZ_MAX_INPUT)
		return 0;
	if (saved_in < 0)
		setup();
	char *text;
	size_t len;
	int in = payload_fd(data, size, &text, &len);
	int out = memfd_create("answer", MFD_CLOEXEC);
	FUZZ_ASSERT(out >= 0);
	FUZZ_ASSERT(fflush(stdout) == 0);
	FUZZ_ASSERT(dup2(in, STDIN_FILENO) == STDIN_FILENO);
	FUZZ_ASSERT(dup2(out, STDOUT_FILENO) == STDOUT_FILENO);

	char a0[] = "hook", a1[] = "-C", a3[] = "-p", a5[] = "claude";
	char *argv[] = { a0, a1, proj, a3, policy, a5, NULL };
	int status = lf_cmd_hook(6, argv);

	FUZZ_ASSERT(fflush(stdout) == 0);
	FUZZ_ASSERT(dup2(saved_in, STDIN_FILENO) == STDIN_FILENO);
	FUZZ_ASSERT(dup2(saved_out, STDOUT_FILENO) == STDOUT_FILENO);
	static char answer[65536];
	fd_slurp(out, answer, sizeof(answer));
	close(in);
	close(out);

	if (getenv("LF_FUZZ_VERBOSE"))
		fprintf(stderr, "status %d, answer: %s", status, answer[0] ? answer : "(none)\n");
	FUZZ_ASSERT(status == 0);
	json_t *dj;
	const char *d = decision_parse(answer, &dj);

	json_error_t err;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
	json_t *ev = json_object_get(root, "hook_event_name");
	json_t *tn = json_object_get(root, "tool_name");
	json_t *ti = json_object_get(root, "tool_input");
	if (!json_is_object(root) || !json_is_string(ev) ||
	    strcmp(json_string_value(ev), "PreToolUse") != 0) {
		if (!d || strcmp(d, "deny") != 0) {
			fprintf(stderr, "unjudgeable payload not denied (%s): %s\n",
				d ? d : "no output", text);
			abort();
		}
	} else if (json_is_string(tn) && judged_tool(json_string_value(tn))) {
		FUZZ_ASSERT(d != NULL);
		json_t *cmd = json_object_get(ti, "command");
		if (!strcmp(json_string_value(tn), "Bash") && json_is_string(cmd)) {
			const char *c = json_string_value(cmd);
			if (!strcmp(d, "allow") &&
			    lf_shell_analyse(c, strlen(c), subst_part, NULL) == 1) {
				fprintf(stderr, "allowed a command substitution: %s\n", c);
				abort();
			}
		}
	}
	json_decref(root);
	json_decref(dj);
	free(text);
	return 0;
}
