/* What the run screen watches: a live run through the runner, or a stored run replayed from its samples. */
#ifndef KBENCH_UI_LIVE_H
#define KBENCH_UI_LIVE_H

#include <stdbool.h>

#include "run.h"

struct app;

/* Runs a->run's plan with the runner on the run screen; returns when it ends. */
int live_run(struct app *a, char *err, size_t errlen);
/* Plays a->run back at a->replay_speed on the run screen; returns when it ends. */
void live_replay(struct app *a);
void live_abort(struct app *a);
/* Frees the telemetry sampler and the replay timeline. */
void live_close(void);
void live_skip(struct app *a);

/* The sample in progress: copies, each copy's count so far, seconds into it. */
int live_copies(const struct app *a);
double live_count(const struct app *a, int copy);
double live_elapsed(const struct app *a);
/* Run time now (seconds since the run started) and what is left, estimated. */
double live_now(const struct app *a);
double live_remaining(const struct app *a);
/* A test's status and finished samples as the screen should show them now
 * (a replay reveals them as its clock passes them). */
enum test_status live_status(const struct app *a, int block, int test);
int live_samples_done(const struct app *a, int block, int test);
/* How many points of a series the screen may show now. */
int live_series_points(const struct app *a, const struct series *s);

/* The latest telemetry frame of a live run, or NULL with why. */
struct telemetry_frame;
const struct telemetry_frame *live_telemetry(const struct app *a, const char **why);

#endif
