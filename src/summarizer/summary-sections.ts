import type { SequenceRange, Summary, SummaryItem, SummarySectionData, SummarySectionName } from '../types.js';

/** Section names of a structured summary in rendering order (`Text`, free text, comes last). */
export const SUMMARY_SECTIONS: readonly SummarySectionName[] = [
  'Completed',
  'Problems solved',
  'Files',
  'Commands',
  'Notes',
  'Open',
  'Text',
];

/**
 * Renders structured sections as summary text: `Files` and one-item sections as `Name: a, b`,
 * others as `Name:` and a bullet per item, `Text` items as they are. Empty sections are skipped;
 * sections render in the order given.
 */
export function renderSections(sections: readonly SummarySectionData[]): string {
  const lines: string[] = [];
  for (const section of sections) {
    const texts = section.items.map((item) => item.text);
    if (texts.length === 0) continue;
    if (section.name === 'Text') {
      lines.push(...texts.map((text) => text.trimEnd()));
    } else if (section.name === 'Files' || texts.length === 1) {
      lines.push(`${section.name}: ${texts.join(', ')}`);
    } else {
      lines.push(`${section.name}:`, ...texts.map((text) => `- ${text}`));
    }
  }
  return lines.join('\n');
}

/** Wraps plain summary text (from a summarizer that returns only `summary`) as one `Text` section. */
export function plainTextSections(options: { text: string; source: SequenceRange }): SummarySectionData[] {
  return [{ name: 'Text', items: [{ text: options.text, source: options.source }] }];
}

/**
 * The sections of a summary: its `sections`, or for a summary committed before summaries were
 * structured, sections read back from its text (the section headers the extractive summarizer
 * wrote; other lines become notes). Every item gets the summary's range as provenance.
 */
export function sectionsOf(summary: Summary): readonly SummarySectionData[] {
  if (summary.sections !== undefined) return summary.sections;
  const items = new Map<SummarySectionName, SummaryItem[]>();
  let current: SummarySectionName = 'Notes';
  const push = (section: SummarySectionName, raw: string): void => {
    const text = raw.trim();
    if (text.length === 0) return;
    const list = items.get(section) ?? [];
    list.push(legacyItem({ section, text, source: summary.source }));
    items.set(section, list);
  };
  for (const line of summary.text.split('\n')) {
    const header = SECTION_HEADER.exec(line);
    if (header !== null) {
      current = header[1] as SummarySectionName;
      const rest = header[2] ?? '';
      if (current === 'Files') for (const part of splitFiles(rest)) push(current, part);
      else push(current, rest);
      continue;
    }
    const bullet = /^\s*[-*•]\s+(.*)$/u.exec(line);
    if (current === 'Files') for (const part of splitFiles(bullet?.[1] ?? line)) push(current, part);
    else push(current, bullet?.[1] ?? line);
  }
  return SUMMARY_SECTIONS.flatMap((name) => {
    const list = items.get(name);
    return list === undefined ? [] : [{ name, items: list }];
  });
}

/** The text of a `Files` item: the path with its edit count, or `(read)`. */
export function fileItemText(options: { path: string; edits: number }): string {
  const { path, edits } = options;
  return edits > 0 ? `${path} (${edits} ${edits === 1 ? 'edit' : 'edits'})` : `${path} (read)`;
}

/** Prefix of an `Open` item for a failure still failing at the end of its chunk. */
export const STILL_FAILING = 'still failing: ';

// --- Internal helpers ---

const SECTION_HEADER = /^(Completed|Problems solved|Files|Commands|Notes|Open):\s*(.*)$/u;

function splitFiles(text: string): string[] {
  return text.split(/,\s+(?![^()]*\))/u).map((part) => part.trim()).filter((part) => part.length > 0);
}

function legacyItem(options: { section: SummarySectionName; text: string; source: SequenceRange }): SummaryItem {
  const { section, text, source } = options;
  if (section === 'Files') {
    const match = /^(.*?)\s+\((?:(\d+) edits?|read)[^)]*\)$/u.exec(text);
    return { text, source, path: match?.[1] ?? text, edits: match?.[2] === undefined ? 0 : Number(match[2]) };
  }
  if (section === 'Commands') {
    return { text, source, command: text.split(': ', 1)[0] ?? text, isTestRun: /: (?:\d+ runs|passed|failed)\b/u.test(text) };
  }
  if (section === 'Open' && text.startsWith(STILL_FAILING)) return { text, source, isStillFailing: true };
  return { text, source };
}
