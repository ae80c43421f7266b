/* The wizard's small widgets: width-aware text output, boxes from the glyph table, a menu's row,
 * word wrapping, and the scrolling text views of Detected and the detail screen. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "app/wizard/ui_int.h"
#include "fstune/utf8.h"
#include "lib/xalloc.h"

/* Cells of the next character at `s` (of `*bytes` bytes); invalid bytes count as one cell each. */
static int char_cells(const char *s, size_t *bytes)
{
	mbstate_t st;
	wchar_t wc;
	size_t n;
	int w;

	memset(&st, 0, sizeof(st));
	n = mbrtowc(&wc, s, MB_CUR_MAX, &st);
	if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
		*bytes = 1;
		return 1;
	}
	*bytes = n;
	w = wcwidth(wc);
	return w < 0 ? 1 : w;
}

/* Whether `s` holds a control character (C0, DEL or C1), which curses would obey: a carriage
 * return or a line break moves the cursor back over the row, an escape reaches the terminal. */
static bool has_control(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f || (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
			return true;
	return false;
}

int ui_text_width(const char *text)
{
	int cells = 0;
	size_t n;

	if (has_control(text)) {
		char *visible = fst_text_visible(text, true);

		cells = ui_text_width(visible);
		free(visible);
		return cells;
	}
	for (const char *p = text; *p; p += n)
		cells += char_cells(p, &n);
	return cells;
}

/* Text in a cell of the screen is one line of what it says: a fact from a facts file anyone can
 * write (a disk's model, a mount point) has its control characters written visibly, as the text
 * report writes them. */
int ui_put(int y, int x, int cols, attr_t attr, const char *text)
{
	int cells = 0, ell = ui_text_width(ui_glyph->ellipsis);
	const char *p = text, *cut = NULL;
	size_t n;
	int cut_cells = 0;

	if (cols <= 0 || !text)
		return 0;
	if (has_control(text)) {
		char *visible = fst_text_visible(text, true);

		cells = ui_put(y, x, cols, attr, visible);
		free(visible);
		return cells;
	}
	if (ui_text_width(text) > cols) {
		/* Cut where the rest plus the ellipsis still fits. */
		for (p = text; *p; p += n) {
			int w = char_cells(p, &n);

			if (cells + w > cols - ell)
				break;
			cells += w;
		}
		cut = p;
		cut_cells = cells;
	}
	attron(attr);
	if (cut) {
		mvaddnstr(y, x, text, (int)(cut - text));
		if (cut_cells + ell <= cols)
			addstr(ui_glyph->ellipsis), cut_cells += ell;
		cells = cut_cells;
	} else {
		mvaddstr(y, x, text);
		cells = ui_text_width(text);
	}
	attroff(attr);
	return cells;
}

int ui_put_wrapped(int y, int x, int cols, attr_t attr, const char *text, int fits)
{
	size_t n;
	char **lines;

	if (!text || ui_text_width(text) <= fits)
		return 0;
	lines = ui_wrap(text, cols, &n);
	for (size_t i = 0; i < n; i++)
		ui_put(y + (int)i, x, cols, attr, lines[i]);
	ui_lines_free(lines, n);
	return (int)n + 1;
}

void ui_fill(int y, int x, int cols, attr_t attr)
{
	attron(attr);
	for (int i = 0; i < cols; i++)
		mvaddch(y, x + i, ' ');
	attroff(attr);
}

void ui_frame(WINDOW *win, int y, int x, int rows, int cols, attr_t attr)
{
	wattron(win, attr);
	for (int i = 1; i < cols - 1; i++) {
		mvwaddstr(win, y, x + i, ui_glyph->hline);
		mvwaddstr(win, y + rows - 1, x + i, ui_glyph->hline);
	}
	for (int r = 1; r < rows - 1; r++) {
		mvwaddstr(win, y + r, x, ui_glyph->vline);
		mvwaddstr(win, y + r, x + cols - 1, ui_glyph->vline);
	}
	mvwaddstr(win, y, x, ui_glyph->ul);
	mvwaddstr(win, y, x + cols - 1, ui_glyph->ur);
	mvwaddstr(win, y + rows - 1, x, ui_glyph->ll);
	mvwaddstr(win, y + rows - 1, x + cols - 1, ui_glyph->lr);
	wattroff(win, attr);
}

void ui_box(WINDOW *win, attr_t attr)
{
	int rows, cols;

	getmaxyx(win, rows, cols);
	ui_frame(win, 0, 0, rows, cols, attr);
}

char **ui_wrap(const char *text, int width, size_t *n)
{
	char **lines = NULL;
	const char *p = text ? text : "";

	*n = 0;
	if (width < 10)
		width = 10;
	while (*p) {
		const char *start, *end, *brk = NULL, *slash = NULL, *q;
		int cells = 0;
		size_t b;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		start = p;
		for (q = p; *q && *q != '\n'; q += b) {
			int w = char_cells(q, &b);

			if (cells + w > width)
				break;
			if (*q == ' ')
				brk = q;
			else if (*q == '/' && q > start)
				slash = q + 1;
			cells += w;
		}
		/* a word longer than the line (a path) breaks after a slash where it has one */
		if (!*q || *q == '\n')
			end = q;
		else
			end = brk ? brk : slash ? slash : q;
		lines = xrealloc(lines, (*n + 1) * sizeof(*lines));
		lines[(*n)++] = xstrndup(start, (size_t)(end - start));
		p = *end == '\n' ? end + 1 : end;
	}
	return lines;
}

void ui_lines_free(char **lines, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}

void ui_lines_add(struct ui_lines *l, enum ui_role role, int indent, const char *fmt, ...)
{
	va_list ap;
	char *text;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		abort();
	va_end(ap);
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = (struct ui_line){text, role, indent};
}

void ui_lines_clear(struct ui_lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].text);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* The lines of `in` as `cols` cells show them: a line wider goes on under itself, 4 cells further in,
 * so that nothing is cut (a screen lays out its own columns; this is for what still does not fit). */
static void fit_lines(const struct ui_lines *in, int cols, struct ui_lines *out)
{
	for (size_t i = 0; i < in->n; i++) {
		const struct ui_line *line = &in->v[i];
		size_t n;
		char **parts;

		if (ui_text_width(line->text) <= cols - line->indent) {
			ui_lines_add(out, line->role, line->indent, "%s", line->text);
			continue;
		}
		parts = ui_wrap(line->text, cols - line->indent - 4, &n);
		for (size_t k = 0; k < n; k++)
			ui_lines_add(out, line->role, line->indent + (k ? 4 : 0), "%s", parts[k]);
		ui_lines_free(parts, n);
	}
}

void ui_view_draw(struct ui_view *v, const struct ui_area *a)
{
	struct ui_lines l = {0};

	fit_lines(&v->content, a->cols, &l);
	v->rows = a->rows;
	ui_scroll_clamp(&v->top, (int)l.n, a->rows);
	for (int r = 0; r < a->rows && (size_t)(v->top + r) < l.n; r++) {
		const struct ui_line *line = &l.v[v->top + r];

		ui_put(a->top + r, a->left + line->indent, a->cols - line->indent, ui_attr(line->role),
		       line->text);
	}
	ui_lines_clear(&l);
}

attr_t ui_row_bar(int y, int x, int cols, bool is_sel)
{
	attr_t at = ui_attr(is_sel ? UI_SELECTED : UI_NORMAL);

	if (is_sel)
		ui_fill(y, x, cols, at);
	return at;
}

attr_t ui_menu_row(int y, const struct ui_area *a, bool is_sel, const char *name, int name_cells, int text_x)
{
	attr_t at = ui_row_bar(y, a->left, a->cols, is_sel);
	char lead[64];

	snprintf(lead, sizeof(lead), "%s %-*s", is_sel ? ui_glyph->cursor : " ", name_cells, name);
	ui_put(y, a->left, text_x, at | A_BOLD, lead);
	return at;
}

void ui_hbar(int y, int x, int cols, attr_t attr, double value, double max)
{
	long eighths = max > 0 && value > 0 ? (long)(value / max * cols * 8 + 0.5) : 0;

	if (eighths > (long)cols * 8)
		eighths = (long)cols * 8;
	attron(attr);
	move(y, x);
	for (int i = 0; i < cols; i++, eighths -= 8)
		addstr(ui_glyph->hbar[eighths >= 8 ? 8 : eighths > 0 ? eighths : 0]);
	attroff(attr);
}

const char *ui_rate(char *buf, size_t len, double v)
{
	if (v >= 1e9)
		snprintf(buf, len, "%.1fG", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, len, "%.1fM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else if (v >= 10 || v == 0)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.1f", v);
	return buf;
}
