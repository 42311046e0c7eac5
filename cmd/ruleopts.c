#include <string.h>

#include "cmd.h"
#include "ruleopts.h"
#include "walkopts.h"
#include "api/formats.h"
#include "api/judge.h"


void
ruleopts_init(struct ruleopts *ro)
{
	memset(ro, 0, sizeof(*ro));
	ro->name = "auto";
	ro->lim = limits_default;
}

int
readopts_take(struct judge_opts *jo, int opt, const char *arg,
    const char *usage)
{
	switch (opt) {
	case OPT_READ_FROM:
		if (!(jo->from = formats_by_name(arg)) || !jo->from->read)
			return cmd_usage_error(usage, "unknown format '%s' "
			    "(known: %s)", arg, formats_names());
		return 1;
	case OPT_READ_VARIANT:
		return cmd_variant(arg, &jo->variant, usage) ? EXIT_TROUBLE : 1;
	default:
		return 0;
	}
}

int
judgeopts_take(struct judge_opts *jo, struct walkopts *wo,
    struct ruleopts *ro, int opt, char *arg, const char *usage)
{
	int rc;

	if ((rc = readopts_take(jo, opt, arg, usage)) != 0 ||
	    (rc = walkopts_take(wo, opt, arg, usage)) != 0)
		return rc;
	return ruleopts_take(ro, opt, arg, usage);
}

int
ruleopts_judge(const struct ruleopts *ro, struct ruleset *rs,
    struct judge_opts *jo, const char *usage)
{
	if (ruleopts_build(ro, rs, &jo->auto_rules, usage))
		return EXIT_TROUBLE;
	jo->rules = rs;
	jo->no_result_check = ro->no_result_check;
	jo->limits = &ro->lim;
	return 0;
}

int
limitopt_take(struct limits *lim, const char *arg, const char *usage)
{
	if (limits_parse(lim, arg) < 0)
		return cmd_usage_error(usage, "--limit wants NAME=N with NAME "
		    "one of %s, not '%s'", limits_names, arg);
	return 0;
}

int
ruleopts_take(struct ruleopts *ro, int opt, char *arg, const char *usage)
{
	const char *key;
	char *eq;

	switch (opt) {
	case OPT_RULES:
		ro->name = arg;
		return 1;
	case OPT_NO_RESULT_CHECK:
		ro->no_result_check = 1;
		return 1;
	case OPT_LIMIT:
		return limitopt_take(&ro->lim, arg, usage) ? EXIT_TROUBLE : 1;
	case OPT_DECLARATION: key = "declaration"; break;
	case OPT_MAX_MOVES: key = "max-moves"; break;
	case OPT_REPETITION_START: key = "repetition-counts-start"; break;
	case OPT_RULE:
		if (!(eq = strchr(arg, '=')) || eq == arg) {
			cmd_usage_error(usage, "--rule wants KEY=VALUE, not '%s'",
			    arg);
			return EXIT_TROUBLE;
		}
		*eq = '\0';
		key = arg;
		arg = eq + 1;
		break;
	default:
		return 0;
	}
	if (ro->n == RULEOPTS_MAX) {
		cmd_usage_error(usage, "too many rule settings");
		return EXIT_TROUBLE;
	}
	ro->keys[ro->n] = key;
	ro->values[ro->n] = arg;
	ro->n++;
	return 1;
}

int
ruleopts_build(const struct ruleopts *ro, struct ruleset *rs, int *automatic,
    const char *usage)
{
	int is_auto = strcmp(ro->name, "auto") == 0;
	int i;

	/* A set as printed ("csa,max-moves=0") is the set and its settings. */
	if (is_auto)
		*rs = *ruleset_default();
	else if (ruleset_parse(ro->name, strlen(ro->name), rs) < 0)
		return cmd_usage_error(usage, "unknown rule set '%s' (known: "
		    "auto, %s)", ro->name, ruleset_names());
	/* Under auto only the overrides count; the set comes per record. */
	if (is_auto)
		rs->name = "auto";
	*automatic = is_auto;
	for (i = 0; i < ro->n; i++)
		if (ruleset_set(rs, ro->keys[i], ro->values[i]) < 0)
			return cmd_usage_error(usage, "bad rule setting %s=%s",
			    ro->keys[i], ro->values[i]);
	return 0;
}
