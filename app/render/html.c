/* Escaping and the page's frame for the HTML writers (html.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/render/html.h"
#include "app/render/report_render.h"
#include "fstune/utf8.h"

/* U+202A..U+202E and U+2066..U+2069: the embedding, override and isolate controls. */
static bool is_bidi_control(const unsigned char *p, size_t len)
{
	return len == 3 && p[0] == 0xe2 &&
	       ((p[1] == 0x80 && p[2] >= 0xaa && p[2] <= 0xae) || (p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9));
}

/* The entity of each character HTML reads as markup, indexed by the character; NULL: itself. */
static const char *const entities[128] = {
	['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;", ['"'] = "&quot;", ['\''] = "&#39;",
};

static void escape_ascii(FILE *out, unsigned char c)
{
	if (c < 128 && entities[c])
		fputs(entities[c], out);
	else if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
		fprintf(out, "\\x%02x", c);
	else
		fputc(c, out);
}

void html_text(FILE *out, const char *s)
{
	size_t n = s ? strlen(s) : 0, len;

	for (size_t i = 0; i < n; i += len) {
		const unsigned char *p = (const unsigned char *)s + i;

		len = fst_utf8_sequence(s + i, n - i);
		if (len == 0) {
			fprintf(out, "\\x%02x", *p);
			len = 1;
		} else if (len == 1) {
			escape_ascii(out, *p);
		} else if (is_bidi_control(p, len)) {
			fprintf(out, "\\u{%04x}", ((p[1] & 0x3fu) << 6 | (p[2] & 0x3fu)) | 0x2000u);
		} else {
			fwrite(p, 1, len, out);
		}
	}
}

void html_element(FILE *out, const char *tag, const char *cls, const char *s)
{
	if (cls)
		fprintf(out, "<%s class=\"%s\">", tag, cls);
	else
		fprintf(out, "<%s>", tag);
	html_text(out, s);
	fprintf(out, "</%s>", tag);
}

const char *html_severity_class(int rank)
{
	static const char *const names[] = {"sev-0", "sev-1", "sev-2", "sev-3"};

	return rank >= 0 && rank <= 3 ? names[rank] : "sev-x";
}

void html_pre_of(FILE *out, const char *cls, void (*fn)(FILE *stream, const void *arg), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	fn(m, arg);
	if (fclose(m) == 0) {
		fprintf(out, "<pre class=\"%s\">", cls);
		html_text(out, buf);
		fputs("</pre>\n", out);
	}
	free(buf);
}

/* Light and dark from the reader's setting; wide content (a table, a command) wraps or scrolls inside
 * its own box, never the page, down to a phone's 360 pixels. A comparison's table keeps its keys
 * whole and scrolls sideways instead. */
static const char style[] =
	":root{--fg:#1b1f24;--muted:#57606a;--bg:#fff;--box:#f6f8fa;--line:#d0d7de;--bar:#3b7dd8;"
	"--crit:#b3261e;--warn:#a15c00;--sugg:#1f6feb;--info:#57606a}\n"
	"@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9aa5b1;--bg:#0d1117;--box:#161b22;"
	"--line:#30363d;--bar:#58a6ff;--crit:#ff7b72;--warn:#e3b341;--sugg:#79c0ff;--info:#9aa5b1}}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"
	"'Segoe UI',sans-serif}\n"
	"main{max-width:60rem;margin:0 auto;padding:1rem;overflow-wrap:anywhere}\n"
	"h1{font-size:1.6rem;margin:.2rem 0}h2{font-size:1.3rem;margin-top:2rem;border-bottom:1px solid "
	"var(--line)}h3{font-size:1.1rem;margin-top:1.6rem}h4{font-size:1rem;margin:0 0 .3rem}\n"
	".muted,.gen{color:var(--muted)}.headline{font-weight:600;border-left:4px solid var(--warn);"
	"padding-left:.6rem}\n"
	"dl.pairs{display:grid;grid-template-columns:minmax(6rem,max-content) 1fr;gap:.1rem 1rem;margin:0}"
	"dl.pairs dt{color:var(--muted)}dl.pairs dd{margin:0}\n"
	"code,pre{font:13px/1.45 ui-monospace,'DejaVu Sans Mono',monospace}\n"
	"pre{background:var(--box);border:1px solid var(--line);border-radius:6px;padding:.5rem .7rem;"
	"margin:.3rem 0}\n"
	"pre.cmd{white-space:pre-wrap;overflow-wrap:anywhere}pre.cmd code{user-select:all}\n"
	"pre.table{overflow-x:auto;white-space:pre}\n"
	".scroll{overflow-x:auto}.scroll td,.scroll th{overflow-wrap:normal}table{border-collapse:collapse;"
	"margin:.3rem 0}"
	"th,td{text-align:left;vertical-align:top;padding:.15rem .6rem .15rem 0;border-bottom:1px solid "
	"var(--line)}\n"
	"table.evidence{width:100%;table-layout:fixed}table.evidence td,table.evidence th{overflow-wrap:anywhere}\n"
	"article.rec{border:1px solid var(--line);border-left-width:5px;border-radius:6px;padding:.7rem .9rem;"
	"margin:.8rem 0}\n"
	".sev{display:inline-block;font-size:.75rem;font-weight:700;letter-spacing:.04em;padding:0 .4rem;"
	"border-radius:4px;color:var(--bg);background:var(--info);margin-right:.4rem}\n"
	".sev-3{border-left-color:var(--crit)}.sev-3 .sev,.sev.sev-3{background:var(--crit)}"
	".sev-2{border-left-color:var(--warn)}.sev-2 .sev,.sev.sev-2{background:var(--warn)}"
	".sev-1{border-left-color:var(--sugg)}.sev-1 .sev,.sev.sev-1{background:var(--sugg)}\n"
	".label{font-weight:600;margin:.6rem 0 .1rem}\n"
	"figure{margin:1rem 0}figcaption{font-weight:600}svg{display:block;width:100%;height:auto;"
	"max-width:40rem}svg path{fill:none}svg text{fill:var(--fg);font:13px system-ui,sans-serif}svg .axis{stroke:var(--line)}"
	"svg .bar{fill:var(--bar)}svg .ci{stroke:var(--fg);stroke-width:1.5}svg .line{fill:none;"
	"stroke:var(--bar);stroke-width:2.5}svg .pt{fill:var(--bar)}svg text.muted{fill:var(--muted)}svg .flag{fill:var(--warn);font-weight:700}\n"
	".charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(18rem,1fr));gap:0 2rem}\n"
	"nav ul{padding-left:1.2rem}details{margin:.6rem 0}summary{cursor:pointer;font-weight:600}\n";

void html_page_begin(FILE *out, const char *title, const char *subject)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"fstune\">\n<title>",
	      out);
	html_text(out, title);
	if (subject) {
		fputs(": ", out);
		html_text(out, subject);
	}
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n", style);
}

int html_page_end(FILE *out)
{
	fputs("</main>\n</body>\n</html>\n", out);
	return report_finish(out);
}
