/*
 * date.h - the date a record was played, from whichever date header its
 * format has, in one form: "YYYY-MM-DD", or "YYYY-MM" and "YYYY" when
 * the header says no more. `kifu find --date` compares these, `kifu
 * stats` groups by them, and an index stores them.
 */
#ifndef KIFU_CORE_DATE_H
#define KIFU_CORE_DATE_H

#include <stddef.h>

#include "record.h"

/* "YYYY-MM-DD" and its NUL. */
#define DATE_MAX 11

/*
 * Reads the date at the start of s[0..n) as headers write it, into out:
 * "2014/10/13 18:51:20", "2014-10-13T..." (ISO 8601), "2008/12/20(土)",
 * "2021年4月5日", 和暦 "令和3年4月5日" (also 平成, 昭和, 大正, 明治, and
 * 元年), "12/30/2018 10:29:48 PM" (US order, four-digit year last),
 * "20141013", and the partial "2021/04", "2021年4月", "2021"; full-width
 * digits and blanks as ASCII ones. What follows the date (a time, a
 * weekday, "･30日") is ignored. Returns the length written (10, 7 or 4),
 * or 0 (out "") when the text starts with no valid date.
 */
int date_parse(const char *s, size_t n, char out[DATE_MAX]);

/*
 * The record's date: its start (開始日時, 対局日, $START_TIME, JKF's
 * 開始日時), else its end (終了日時, $END_TIME), the first such header
 * that holds a date. Returns the length as date_parse, 0 for none.
 */
int date_of_record(const struct record *r, char out[DATE_MAX]);

#endif /* KIFU_CORE_DATE_H */
