/* The history screen (being written). */
#include "app.h"

static void history_draw(struct app *a, struct canvas *c)
{
	app_draw_title(a, c, "history", NULL);
}

const struct screen_ops screen_history = { .name = "history", .draw = history_draw };
