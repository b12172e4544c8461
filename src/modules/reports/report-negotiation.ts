import { StreamableFile } from '@nestjs/common';
import type { Request, Response } from 'express';
import { renderSvgChart } from '../../common/charts/svg-chart';
import { AppError } from '../../common/errors/app-error';
import { etagOf, matches, setCachingHeaders } from '../../common/http/conditional-get';
import type { ApiRequest } from '../../common/http/request';
import { reportChart } from './report-chart';
import { toCsv } from './report-csv';
import type { Report } from './reports.service';

const CSV = 'text/csv';
const SVG = 'image/svg+xml';

/** What a report answers in: JSON, the CSV of its rows, or an SVG chart of them (by `Accept`). */
export type ReportFormat = 'json' | 'csv' | 'svg';

/**
 * Content negotiation over JSON (the default without `Accept`), CSV and SVG; an `Accept` that names
 * none of them (nor a wildcard) is 406.
 */
export function negotiate(req: Request, res: Response): ReportFormat {
  res.vary('Accept');
  if (!req.headers.accept) return 'json';
  const chosen = req.accepts(['application/json', CSV, SVG]);
  if (chosen === false)
    throw new AppError('not_acceptable', {
      media_type: req.headers.accept,
      available: `application/json, ${CSV}, ${SVG}`,
    });
  return chosen === CSV ? 'csv' : chosen === SVG ? 'svg' : 'json';
}

/**
 * The report as negotiated: JSON as is; CSV of its rows or an SVG chart of them, each with an ETag
 * of its own bytes (no generated_at in them: unchanged data answers 304).
 */
export function answerReport(
  req: Request,
  res: Response,
  report: Report<object, unknown>,
  format: ReportFormat,
  columns: readonly string[],
): Report<object, unknown> | StreamableFile | undefined {
  if (format === 'json') return report;
  const r = req as ApiRequest;
  const text = format === 'csv' ? toCsv(report.rows, columns) : renderSvgChart(reportChart(report, r.lang));
  const tag = etagOf(text, r.principal?.tenantId ?? '-', r.lang);
  res.setHeader('ETag', tag);
  setCachingHeaders(res);
  res.vary('Accept');
  if (matches(req.headers['if-none-match'], tag)) {
    res.status(304);
    return undefined;
  }
  const body = Buffer.from(text, 'utf8');
  const type = format === 'csv' ? 'text/csv; charset=utf-8' : 'image/svg+xml; charset=utf-8';
  return new StreamableFile(body, {
    type,
    length: body.length,
    disposition: `inline; filename="${report.report}.${format}"`,
  });
}
