/* The run screen (being written). */
#include "app.h"

static void run_draw(struct app *a, struct canvas *c)
{
	app_draw_title(a, c, "run", NULL);
}

const struct screen_ops screen_run = { .name = "run", .draw = run_draw };
