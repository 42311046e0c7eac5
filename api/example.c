/*
 * example.c - read a record file, print its final position and result.
 *
 *	cc example.c $(pkg-config --cflags --libs kifu) -o example
 *	./example game.kif
 */
#include <stdio.h>

#include <kifu/kifu.h>

int
main(int argc, char **argv)
{
	kifu_file *f;
	kifu_error *e;
	size_t i;

	if (argc != 2) {
		fprintf(stderr, "usage: example FILE\n");
		return 2;
	}
	if (kifu_read_file(argv[1], NULL, &f, &e) != KIFU_OK) {
		fprintf(stderr, "%s\n", kifu_error_message(e));
		kifu_error_free(e);
		return 2;
	}
	for (i = 0; i < kifu_file_count(f); i++) {
		const kifu_record *r = kifu_file_record(f, i);

		if (kifu_record_error(r))
			printf("%s\n", kifu_error_message(kifu_record_error(r)));
		else
			printf("%s %s %s (%s)\n", kifu_record_final_sfen(r),
			    kifu_record_result_winner(r),
			    kifu_record_result_reason(r), kifu_record_rules(r));
	}
	kifu_file_free(f);
	return 0;
}
