// SPDX-License-Identifier: GPL-2.0
/*
 * Charts as inline SVG, drawn here so that pages need no JavaScript and
 * no image files: the per-subsystem progress bar and the burn-down.
 * Colours come from classes in style.css.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "report/report.h"
#include "web/web.h"

/* Progress reads left to right: finished states first. */
static const int bar_order[] = {
	ST_DONE, ST_TESTED, ST_CONVERTED, ST_AUDITED, ST_PUSHED_DOWN,
	ST_CLAIMED, ST_BLOCKED, ST_UNCLAIMED,
};

void svg_legend(struct strbuf *sb)
{
	size_t i;

	strbuf_addstr(sb, "<div class=\"legend\">");
	for (i = 0; i < sizeof(bar_order) / sizeof(bar_order[0]); i++)
		html_addf(sb, "<span><i class=\"s-%s\"></i>%s</span>",
			  report_status_name[bar_order[i]], report_status_name[bar_order[i]]);
	strbuf_addstr(sb, "</div>");
}

void svg_status_bar(struct strbuf *sb, const long *counts, int width)
{
	long total = 0;
	double x = 0;
	size_t i;

	for (i = 0; i < NR_STATUS; i++)
		total += counts[i];
	html_addf(sb, "<svg viewBox=\"0 0 %d 14\" preserveAspectRatio=\"none\" role=\"img\">", width);
	if (!total)
		html_addf(sb, "<rect width=\"%d\" height=\"14\" rx=\"3\" class=\"s-unclaimed\"/>", width);
	for (i = 0; total && i < sizeof(bar_order) / sizeof(bar_order[0]); i++) {
		int st = bar_order[i];
		double w = (double)counts[st] * width / total;
		char xs[32], ws[32];

		if (!counts[st])
			continue;
		snprintf(xs, sizeof(xs), "%.2f", x);
		snprintf(ws, sizeof(ws), "%.2f", w);
		html_addf(sb, "<rect x=\"%s\" width=\"%s\" height=\"14\" class=\"s-%s\">"
			  "<title>%s: %ld</title></rect>", xs, ws,
			  report_status_name[st], report_status_name[st], counts[st]);
		x += w;
	}
	strbuf_addstr(sb, "</svg>");
}

#define CW 760		/* chart box */
#define CH 280
#define ML 52		/* margins */
#define MR 56
#define MT 24
#define MB 34

static void fmt_day(time_t t, char *buf, size_t n)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, n, "%Y-%m-%d", &tm);
}

static double px(time_t t, time_t t0, time_t t1)
{
	return ML + (double)(t - t0) * (CW - ML - MR) / (t1 > t0 ? t1 - t0 : 1);
}

static double py(long v, long vmax)
{
	return MT + (CH - MT - MB) * (1.0 - (double)v / (vmax > 0 ? vmax : 1));
}

/* A round step for about four divisions of 0..max (1, 2, 5, 10, 20...). */
static long nice_step(long max)
{
	long mag = 1, n;

	while (max / mag > 40)
		mag *= 10;
	n = (max + 3) / 4;
	if (n <= mag)
		return mag;
	if (n <= 2 * mag)
		return 2 * mag;
	if (n <= 5 * mag)
		return 5 * mag;
	return 10 * mag;
}

struct scale {
	long dtop, stop;	/* the axes' tops: drivers left, sites right */
	int divs;
};

static void make_scale(struct scale *sc, long dmax, long smax)
{
	long step = nice_step(dmax > 0 ? dmax : 1);

	sc->divs = (dmax + step - 1) / step;
	if (sc->divs < 1)
		sc->divs = 1;
	sc->dtop = step * sc->divs;
	/* the same grid lines on the right: a whole number of sites each */
	sc->stop = ((smax > 0 ? smax : 1) + sc->divs - 1) / sc->divs * sc->divs;
}

static void axes(struct strbuf *sb, time_t t0, time_t t1, const struct scale *sc)
{
	char day[16];
	int i;

	for (i = 0; i <= sc->divs; i++) {
		double y = MT + (CH - MT - MB) * (double)i / sc->divs;

		strbuf_addf(sb, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>",
			    ML, CW - MR, y, y);
		strbuf_addf(sb, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%ld</text>",
			    ML - 6, y + 4, sc->dtop - sc->dtop / sc->divs * i);
		strbuf_addf(sb, "<text x=\"%d\" y=\"%.1f\">%ld</text>",
			    CW - MR + 6, y + 4, sc->stop - sc->stop / sc->divs * i);
	}
	strbuf_addf(sb, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>",
		    ML, CW - MR, CH - MB, CH - MB);
	for (i = 0; i <= 4; i++) {
		time_t t = t0 + (t1 - t0) / 4 * i;

		fmt_day(t, day, sizeof(day));
		html_addf(sb, i == 0 ? "<text x=\"%ld\" y=\"%d\">%s</text>" : i == 4 ?
			  "<text x=\"%ld\" y=\"%d\" text-anchor=\"end\">%s</text>" :
			  "<text x=\"%ld\" y=\"%d\" text-anchor=\"middle\">%s</text>",
			  (long)px(t, t0, t1), CH - MB + 16, day);
	}
	strbuf_addf(sb, "<text class=\"lab-drivers\" x=\"%d\" y=\"14\">drivers still under the BKL</text>", ML);
	strbuf_addf(sb, "<text class=\"lab-sites\" x=\"%d\" y=\"14\" text-anchor=\"end\">"
		    "BKL sites in them, explicit + implicit (right axis)</text>", CW - MR);
}

static void series(struct strbuf *sb, const struct burndown *bd, time_t t0, time_t t1,
		   long vmax, int sites)
{
	int i;

	strbuf_addf(sb, "<polyline class=\"%s\" points=\"", sites ? "sites" : "drivers");
	for (i = 0; i < bd->nr; i++) {
		long v = sites ? bd->pts[i].sites : bd->pts[i].drivers;

		/* a step chart: the value holds until the next change */
		if (i)
			strbuf_addf(sb, "%.1f,%.1f ", px(bd->pts[i].t, t0, t1),
				    py(sites ? bd->pts[i - 1].sites : bd->pts[i - 1].drivers, vmax));
		strbuf_addf(sb, "%.1f,%.1f ", px(bd->pts[i].t, t0, t1), py(v, vmax));
	}
	strbuf_addstr(sb, "\"/>");
}

void svg_burndown(struct strbuf *sb, const struct burndown *bd)
{
	time_t t0, t1, last;
	long dmax = 1, smax = 1;
	struct scale sc;
	int i;

	strbuf_addf(sb, "<svg class=\"chart\" viewBox=\"0 0 %d %d\" role=\"img\" "
		    "aria-label=\"burn-down of drivers and sites still under the BKL\">", CW, CH);
	if (!bd->nr) {
		strbuf_addf(sb, "<text class=\"big\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
			    "%ld drivers under the BKL today, and no step taken yet:</text>"
			    "<text class=\"big\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
			    "the burn-down starts with the first claim.</text></svg>",
			    CW / 2, CH / 2 - 10, bd->drivers_total, CW / 2, CH / 2 + 10);
		return;
	}
	for (i = 0; i < bd->nr; i++) {
		if (bd->pts[i].drivers > dmax)
			dmax = bd->pts[i].drivers;
		if (bd->pts[i].sites > smax)
			smax = bd->pts[i].sites;
	}
	t0 = bd->pts[0].t;
	last = bd->pts[bd->nr - 1].t;
	t1 = last > t0 ? last : t0 + 86400;
	/* show the projection, but never squash the history below a quarter */
	if (bd->zero > t1)
		t1 = bd->zero < t0 + 4 * (t1 - t0) ? bd->zero : t0 + 4 * (t1 - t0);
	make_scale(&sc, dmax, smax);
	dmax = sc.dtop;
	smax = sc.stop;
	axes(sb, t0, t1, &sc);
	/* the area under the drivers line */
	strbuf_addf(sb, "<polygon class=\"drivers-area\" points=\"%.1f,%d ", px(t0, t0, t1), CH - MB);
	for (i = 0; i < bd->nr; i++) {
		if (i)
			strbuf_addf(sb, "%.1f,%.1f ", px(bd->pts[i].t, t0, t1),
				    py(bd->pts[i - 1].drivers, dmax));
		strbuf_addf(sb, "%.1f,%.1f ", px(bd->pts[i].t, t0, t1), py(bd->pts[i].drivers, dmax));
	}
	strbuf_addf(sb, "%.1f,%d\"/>", px(last, t0, t1), CH - MB);
	series(sb, bd, t0, t1, smax, 1);
	series(sb, bd, t0, t1, dmax, 0);
	if (bd->zero > last) {
		long v = bd->pts[bd->nr - 1].drivers;
		double x1 = px(bd->zero > t1 ? t1 : bd->zero, t0, t1);
		double frac = bd->zero > t1 ? (double)(t1 - last) / (bd->zero - last) : 1.0;

		strbuf_addf(sb, "<line class=\"proj\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\">"
			    "<title>at the current pace</title></line>",
			    px(last, t0, t1), py(v, dmax), x1, py(v - (long)(v * frac), dmax));
	}
	strbuf_addf(sb, "<line class=\"now\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>"
		    "<text x=\"%.1f\" y=\"%d\">now</text>",
		    px(last, t0, t1), px(last, t0, t1), MT, CH - MB, px(last, t0, t1) + 4, CH - MB - 6);
	strbuf_addf(sb, "<circle class=\"dot\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"/>",
		    px(last, t0, t1), py(bd->pts[bd->nr - 1].drivers, dmax));
	strbuf_addstr(sb, "</svg>");
}
