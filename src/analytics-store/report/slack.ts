// The report as a Slack message a webhook accepts: `{ text, blocks }` in Block Kit
// (https://api.slack.com/reference/block-kit/blocks). Within Block Kit's limits: at most 50 blocks, a
// header's plain text at most 150 characters, a section's text at most 3000 (lines past it are left
// out and counted). Text readers typed is mrkdwn-escaped (&, <, > as Slack asks: no link, mention or
// @channel can be made from it) and shown as inline code, where *bold*, _italic_ and ~strike~ do not
// apply; a backtick inside it becomes ˋ so it cannot close the code early.
import {
  changeText,
  count,
  partialPeriods,
  periodName,
  rangeText,
  signed,
  trafficRows,
  visitorsNote,
} from './words.js';
import type { Report, SearchChange } from './types.js';

export const SLACK_LIMITS = { blocks: 50, sectionText: 3000, headerText: 150, fallbackText: 3000 } as const;

type TextObject = { type: 'plain_text'; text: string; emoji?: boolean } | { type: 'mrkdwn'; text: string };
export type Block =
  | { type: 'header'; text: { type: 'plain_text'; text: string; emoji: boolean } }
  | { type: 'section'; text: TextObject }
  | { type: 'context'; elements: TextObject[] }
  | { type: 'divider' };

export interface SlackMessage {
  /** What a notification and a client without blocks show. */
  text: string;
  blocks: Block[];
}

export function renderSlack(report: Report): SlackMessage {
  const name = periodName(report);
  const kind = report.period === 'week' ? 'week' : 'month';
  const blocks: Block[] = [];
  const section = (title: string, lines: string[]) =>
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: fit(`*${title}*`, lines.length === 0 ? ['None.'] : lines) },
    });

  blocks.push({
    type: 'header',
    text: {
      type: 'plain_text',
      text: clip(`Docs analytics: ${kind} ${report.current.label}`, SLACK_LIMITS.headerText),
      emoji: false,
    },
  });
  blocks.push({
    type: 'context',
    elements: [
      {
        type: 'mrkdwn',
        text: escapeMrkdwn(
          `${rangeText(report.current)} against ${rangeText(report.previous)}; days synced ${report.daysSynced.current}/${report.daysSynced.ofDays.current} and ${report.daysSynced.previous}/${report.daysSynced.ofDays.previous}`,
        ),
      },
    ],
  });
  const partial = partialPeriods(report);
  if (partial) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `:warning: ${escapeMrkdwn(partial)}` } });
  section('Views and visitors', [
    ...trafficRows(report).map((r) => `${r.label}: ${count(r.change.current)}, ${changeText(r.change)}`),
    `_(${visitorsNote(report)})_`,
  ]);
  blocks.push({ type: 'divider' });
  const searches = (rows: SearchChange[]) =>
    rows.map((s) => `• ${code(s.query)}: ${count(s.current)} (${signed(s.change)} from ${count(s.previous)})`);
  section(
    `Searches rising (${name.this}: ${count(report.searches.total.current)} searches, ${changeText(report.searches.total)})`,
    searches(report.searches.rising),
  );
  section('Searches falling', searches(report.searches.falling));
  section(
    'New zero-click searches',
    report.searches.newZeroClick.map((s) => `• ${code(s.query)}: ${count(s.hits)}`),
  );
  blocks.push({ type: 'divider' });
  section(
    `Unanswered assistant questions: ${count(report.unanswered.total.current)}, ${changeText(report.unanswered.total)}`,
    report.unanswered.byCategory.map(
      (c) =>
        `• ${code(c.category)}: ${count(c.current)} (${name.before}: ${count(c.previous)})${c.examples.length ? `, e.g. ${c.examples.map(code).join(', ')}` : ''}`,
    ),
  );
  section(
    'Pages with the most thumbs-down',
    report.thumbsDown.map((p) => `• ${code(p.path)}: ${count(p.current)} (${name.before}: ${count(p.previous)})`),
  );

  const fallback = `Docs analytics, ${kind} ${report.current.label}: ${count(report.views.total.current)} views, ${count(report.searches.total.current)} searches, ${count(report.unanswered.total.current)} unanswered questions`;
  return { text: clip(fallback, SLACK_LIMITS.fallbackText), blocks: blocks.slice(0, SLACK_LIMITS.blocks) };
}

/** Slack's three escapes for mrkdwn (https://api.slack.com/reference/surfaces/formatting#escaping). */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Untrusted text as inline code (see the top). */
export function code(text: string): string {
  if (text.trim() === '') return '(empty)';
  return `\`${escapeMrkdwn(text.replace(/`/g, 'ˋ'))}\``;
}

/** A title and lines within a section's 3000 characters: whole lines, then how many were left out. */
function fit(title: string, lines: string[]): string {
  let text = title;
  for (let i = 0; i < lines.length; i++) {
    const more = `\n…and ${lines.length - i} more`;
    const next = `${text}\n${lines[i]}`;
    // Room for the "more" line whenever another line follows.
    if (
      next.length + (i + 1 < lines.length ? `\n…and ${lines.length - i - 1} more`.length : 0) >
      SLACK_LIMITS.sectionText
    )
      return clip(`${text}${more}`, SLACK_LIMITS.sectionText);
    text = next;
  }
  return clip(text, SLACK_LIMITS.sectionText);
}

function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}
