/*
 * standalone.c - runs a fuzz target's LLVMFuzzerTestOneInput on files,
 * without libFuzzer: `make check` builds each target with it under
 * ASan+UBSan and replays testdata/regress/TARGET/, so every input a fuzzer
 * once broke kifu with stays fixed, with any compiler.
 *
 *   build/san/fuzz/regress_kif testdata/regress/kif/x.kif ...
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

int
main(int argc, char **argv)
{
	struct strbuf data = STRBUF_INIT;
	int i, status = 0;

	for (i = 1; i < argc; i++) {
		if (input_read(argv[i], &data) < 0) {
			fprintf(stderr, "%s: %s\n", argv[i], strerror(errno));
			status = 2;
			continue;
		}
		/* The target aborts on a finding: reaching here is passing. */
		LLVMFuzzerTestOneInput((const uint8_t *)data.buf, data.len);
		printf("ok %s\n", argv[i]);
	}
	strbuf_release(&data);
	return status;
}
