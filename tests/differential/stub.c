/* SPDX-License-Identifier: MIT */
/*
 * A stub program for the differential test: installed under many names on
 * the PATH of the traced bash, it does nothing and succeeds, so that what
 * a line runs is seen (the tracer records the exec) but has no effect.
 */
int main(void)
{
	return 0;
}
