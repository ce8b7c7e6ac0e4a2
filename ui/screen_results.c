/* The results screen (being written). */
#include "app.h"

static void results_draw(struct app *a, struct canvas *c)
{
	app_draw_title(a, c, "results", NULL);
}

const struct screen_ops screen_results = { .name = "results", .draw = results_draw };
