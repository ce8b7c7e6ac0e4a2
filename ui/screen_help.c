/* The help screen (being written). */
#include "app.h"

static void help_draw(struct app *a, struct canvas *c)
{
	app_draw_title(a, c, "help", NULL);
}

const struct screen_ops screen_help = { .name = "help", .draw = help_draw };
