# The session: one run's target, facts, benchmarks and rule results, and the findings an admin accepted.
libfstune_app_a_SOURCES += app/session/session.c app/session/session.h app/session/session_query.c \
	app/session/session_run.c app/session/accepted.c app/session/accepted.h
check_PROGRAMS += tests/report/test_accepted
TESTS += tests/report/test_accepted
