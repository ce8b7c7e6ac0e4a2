/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The console's main loop: terminal setup, the screen state machine, keys, signals, drawing, and the two entry points. */
#include "app.h"

#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "compare.h"
#include "live.h"
#include "run.h"
#include "setup_mode.h"
#include "store.h"
#include "term.h"
#include "ui.h"

static volatile sig_atomic_t got_signal;
static bool full_redraw = true;

static void on_quit_signal(int sig)
{
	got_signal = sig;
}

/* A crash in the console itself must still give the terminal back. */
static void on_crash(int sig)
{
	term_close();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_signals(void)
{
	struct sigaction sa = { 0 };
	sa.sa_handler = on_quit_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* Ctrl-\ too: its default action would dump core with the terminal still raw. */
	sigaction(SIGQUIT, &sa, NULL);
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
}

void app_goto(struct app *a, const struct screen_ops *s)
{
	if (a->screen && a->screen->leave)
		a->screen->leave(a);
	if (s != &screen_help)
		a->back = NULL;
	a->screen = s;
	if (s->enter)
		s->enter(a);
	full_redraw = true;
}

void app_message(struct app *a, int role, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->msg, sizeof a->msg, fmt, ap);
	va_end(ap);
	a->msg_role = role;
}

void app_ask(struct app *a, const char *question, unsigned (*on_yes)(struct app *a))
{
	snprintf(a->ask, sizeof a->ask, "%s", question);
	a->on_yes = on_yes;
}

void app_prompt(struct app *a, const char *prompt, const char *initial,
		void (*on_input)(struct app *a, const char *text))
{
	snprintf(a->prompt, sizeof a->prompt, "%s", prompt);
	snprintf(a->input, sizeof a->input, "%s", initial ? initial : "");
	a->on_input = on_input;
}

/* ---- themes ---- */

static void load_theme(struct app *a, const char *name)
{
	char err[400];
	if (theme_load(&a->theme, name, err, sizeof err) < 0)
		app_message(a, ROLE_WARN, "using the default theme: %s", err);
	term_apply_theme(&a->theme, a->force_mono);
	full_redraw = true;
}

unsigned app_next_theme(struct app *a)
{
	char names[16][32];
	int n = theme_names(names, 16), at = 0;
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], a->theme.name))
			at = i + 1;
	load_theme(a, names[at % n]);
	if (!a->msg[0])
		app_message(a, ROLE_NORMAL, "theme %s%s", a->theme.name,
			    a->force_mono ? " (drawn without colour: NO_COLOR or no colours)" : "");
	return 0;
}

/* ---- global keys ---- */

static unsigned act_help(struct app *a)
{
	if (a->screen == &screen_help)
		return UI_BACK;
	const struct screen_ops *was = a->screen;
	app_goto(a, &screen_help);
	a->back = was;
	return 0;
}

static unsigned quit_now(struct app *a)
{
	if (a->live.running) {
		a->quit = true;
		live_stop(&a->live);
		return 0;
	}
	return UI_QUIT;
}

static unsigned act_quit(struct app *a)
{
	if (a->live.running) {
		app_ask(a, a->replay ? "Stop the replay and quit? (y/n)"
				     : "Abort the run and quit? Finished tests are kept. (y/n)",
			quit_now);
		return 0;
	}
	return UI_QUIT;
}

static unsigned act_redraw(struct app *a)
{
	full_redraw = true;
	return 0;
}

static const struct key_def global_keys[] = {
	{ '?', UK_F1, "?/F1", "help", act_help, true },
	{ 'T', 0, NULL, "theme", app_next_theme, true },
	{ UK_F10, 0, NULL, "quit", act_quit, true },
	{ UK_CTRL_L, 0, NULL, "redraw the screen", act_redraw, false },
};
const struct key_table app_global_keys = KEY_TABLE("Everywhere", global_keys);

/* ---- drawing ---- */

const char *app_title_version(void)
{
	static char v[32];
	if (!v[0])
		snprintf(v, sizeof v, "%.*s", (int)strcspn(KBENCH_VERSION, "+-"), KBENCH_VERSION);
	return v;
}

void app_draw_title(struct app *a, struct canvas *c, const char *screen, const char *right)
{
	canvas_fill(c, 0, 0, c->w, ROLE_TITLE, ' ');
	int x = canvas_printf(c, 1, 0, ROLE_TITLE, "kbench %s", app_title_version()) + 1;
	x += canvas_text(c, x, 0, ROLE_TITLE, c->utf8 ? " │ " : " | ", -1);
	x += canvas_text(c, x, 0, ROLE_TITLE, screen, -1);
	if (a->replay) {
		x += canvas_text(c, x, 0, ROLE_TITLE, " ", -1);
		char badge[32];
		snprintf(badge, sizeof badge, " REPLAY %gx ", a->replay_speed);
		x += canvas_text(c, x, 0, ROLE_REPLAY, badge, -1);
	}
	if (right) {
		int w = canvas_strwidth(right);
		int rx = c->w - w - 1;
		if (rx < x + 1)
			rx = x + 1;
		canvas_text(c, rx, 0, ROLE_TITLE, right, c->w - rx - 1);
	}
}

static const struct key_table *const *bar_tables(const struct app *a, int *n)
{
	static const struct key_table *t[2];
	t[0] = a->screen->keys;
	t[1] = &app_global_keys;
	*n = 2;
	return t;
}

void app_draw_bottom(struct app *a, struct canvas *c)
{
	int y = c->h - 2;
	canvas_fill(c, 0, y, c->w, ROLE_NORMAL, ' ');
	if (a->ask[0]) {
		canvas_fill(c, 0, y, c->w, ROLE_WARN, ' ');
		canvas_text(c, 1, y, ROLE_WARN, a->ask, c->w - 2);
	} else if (a->on_input) {
		int x = canvas_text(c, 1, y, ROLE_HEADER, a->prompt, -1) + 1;
		x += canvas_text(c, x + 1, y, ROLE_SELECTED, a->input, c->w - x - 3) + 1;
		canvas_text(c, x, y, ROLE_SELECTED, "_", 1);
	} else if (a->msg[0]) {
		canvas_text(c, 1, y, a->msg_role, a->msg, c->w - 2);
	}
	int n;
	const struct key_table *const *t = bar_tables(a, &n);
	keys_bar(c, c->h - 1, t, n);
}

static void draw(struct app *a)
{
	int w, h;
	term_size(&w, &h);
	if (w != a->canvas.w || h != a->canvas.h) {
		canvas_resize(&a->canvas, w, h);
		full_redraw = true;
	}
	struct canvas *c = &a->canvas;
	canvas_clear(c);
	if (w < APP_MIN_W || h < APP_MIN_H) {
		/* say so rather than draw a layout that cannot fit */
		canvas_printf(c, 0, 0, ROLE_WARN, "Terminal %dx%d: kbench needs %dx%d.", w, h, APP_MIN_W,
			      APP_MIN_H);
		canvas_text(c, 0, 1, ROLE_NORMAL, "Enlarge it; F10 or q quits.", -1);
		if (a->live.running)
			canvas_text(c, 0, 2, ROLE_NORMAL, "(the run goes on)", -1);
	} else {
		a->screen->draw(a, c);
		app_draw_bottom(a, c);
	}
	term_draw(c, full_redraw);
	full_redraw = false;
}

/* ---- keys ---- */

static void input_key(struct app *a, int ch)
{
	size_t n = strlen(a->input);
	if (ch == UK_ENTER) {
		void (*fn)(struct app *, const char *) = a->on_input;
		char text[sizeof a->input];
		snprintf(text, sizeof text, "%s", a->input);
		a->on_input = NULL;
		fn(a, text);
	} else if (ch == UK_ESC || ch == UK_CTRL_C) {
		a->on_input = NULL;
	} else if (ch == UK_BACKSPACE || ch == UK_DELETE) {
		if (n > 0) {
			/* drop a whole UTF-8 sequence */
			while (n > 0 && ((unsigned char)a->input[n - 1] & 0xc0) == 0x80)
				n--;
			a->input[n ? n - 1 : 0] = '\0';
		}
	} else if (ch >= ' ' && ch < 127 && n + 1 < sizeof a->input) {
		a->input[n] = (char)ch;
		a->input[n + 1] = '\0';
	}
}

static void dispatch(struct app *a, int ch)
{
	if (ch == UK_RESIZE) {
		full_redraw = true;
		return;
	}
	if (a->ask[0]) {
		unsigned (*yes)(struct app *) = a->on_yes;
		a->ask[0] = '\0';
		a->on_yes = NULL;
		unsigned f = (ch == 'y' || ch == 'Y') && yes ? yes(a) : 0;
		if (f & UI_QUIT)
			a->quit = true;
		return;
	}
	if (a->on_input) {
		input_key(a, ch);
		return;
	}
	a->msg[0] = '\0';
	int w, h;
	term_size(&w, &h);
	if (w < APP_MIN_W || h < APP_MIN_H) {
		if (ch == 'q' || ch == UK_F10)
			act_quit(a);
		return;
	}
	unsigned f = 0;
	const struct key_def *k = keys_find(a->screen->keys, ch);
	if (!k)
		k = keys_find(&app_global_keys, ch);
	if (k && k->act)
		f = k->act(a);
	else if (a->screen->key)
		f = a->screen->key(a, ch);
	if (f & UI_QUIT)
		a->quit = true;
	if ((f & UI_BACK) && a->screen == &screen_help && a->back)
		app_goto(a, a->back);
}

/* Reads every pending key; the runner wakes us on stdin, so none may stay queued. */
static void poll_keys(struct app *a)
{
	int ch;
	while ((ch = term_key()) >= 0)
		if (ch)
			dispatch(a, ch);
	/* a closed terminal keeps stdin readable forever: leave instead of spinning */
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	if (poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLERR | POLLNVAL)) && !(p.revents & POLLIN))
		got_signal = SIGHUP;
	if (got_signal) {
		/* As shells expect: 130 after Ctrl-C, 143 after SIGTERM, ... */
		a->exit_code = 128 + got_signal;
		got_signal = 0;
		a->quit = true;
		if (a->live.running)
			live_stop(&a->live);
	}
}

/* The live run's and the replay's turn for the console: keys, then the screen. */
static void pump(void *ctx)
{
	struct app *a = ctx;
	poll_keys(a);
	draw(a);
}

static void app_init(struct app *a)
{
	memset(a, 0, sizeof *a);
	app_defaults(a);
	a->live.wake_fd = STDIN_FILENO;
	a->live.leaving = &a->quit;
	a->live.pump = pump;
	a->live.pump_ctx = a;
}

/* ---- the loop ---- */

int app_open_terminal(struct app *a, const char *theme)
{
	char err[300];
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return usage_error("the console needs a terminal (use 'kbench run' for a headless run)");
	if (term_open(&a->utf8, &a->colour, err, sizeof err) < 0)
		return runtime_error("%s", err);
	atexit(term_close);
	install_signals();
	const char *nc = getenv("NO_COLOR");
	a->force_mono = (nc && *nc) || !a->colour;
	canvas_init(&a->canvas, 80, 24, a->utf8);
	load_theme(a, theme ? theme : a->force_mono ? "mono" : "default");
	return 0;
}

/* Idle screens: sleep in poll until a key, a signal, or the screen's tick. */
void app_idle_loop(struct app *a)
{
	while (!a->quit) {
		draw(a);
		struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
		int n = poll(&p, 1, a->screen->tick ? 250 : 1000);
		if (n > 0 && (p.revents & (POLLHUP | POLLERR | POLLNVAL))) {
			a->quit = true; /* the terminal went away */
			break;
		}
		if (a->screen->tick)
			a->screen->tick(a);
		poll_keys(a);
	}
}

void app_finish(struct app *a)
{
	term_close();
	live_close();
	if (a->run)
		run_free(a->run);
	if (a->base)
		run_free(a->base);
	if (a->cmp)
		compare_free(a->cmp);
	canvas_free(&a->canvas);
}

struct app *app_start(const char *cmd, int argc, char **argv, struct console_opts *own, char ***ops, int *nops,
		      int *rc)
{
	static struct app app;
	app_init(&app);
	*own = (struct console_opts){ 0 };
	*rc = app_parse_args(&app, cmd, argc, argv, own, ops, nops);
	return &app;
}
