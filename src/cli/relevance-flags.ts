/** CLI flags on `recall` for relevance and the preferences: the relevance threshold, "now" for time words, and the preferences' switches. */
import { Option, type Command } from 'commander';
import type { RelevanceRecallOptions } from '../types/recall.js';

/** Parsed flags. */
export interface RelevanceFlags {
  minRelevance?: number;
  now?: string;
  timePreference?: boolean;
  preferCurrent?: boolean;
  preferSpeaker?: boolean;
  bestMatch?: boolean;
  excludeSuperseded?: boolean;
}

/** Add the flags to a command. */
export function relevanceFlags(cmd: Command): Command {
  return cmd
    .addOption(
      new Option('--min-relevance <r>', 'only hits with relevance ≥ r (0 to 1; 0.5 drops ≥ 90% of off-topic questions on the eval sets)').argParser(Number),
    )
    .option('--now <time>', '"now" for time words in the query, e.g. 2025-03-01 (default: the clock)')
    .option('--no-time-preference', 'ignore time words in the query')
    .option('--no-prefer-current', 'do not rank newer statements of the same thing first')
    .option('--no-prefer-speaker', "do not rank a named person's turns first")
    .option('--best-match', 'with --min-relevance: when nothing reaches it, show the closest hit (relevance ≥ 0.4) marked low confidence')
    .option('--exclude-superseded', 'leave out memories another memory replaced');
}

/** Recall options from the parsed flags (validation is recall's). */
export function relevanceOptions(o: RelevanceFlags): RelevanceRecallOptions {
  const r: RelevanceRecallOptions = {};
  if (o.minRelevance !== undefined) r.minRelevance = o.minRelevance;
  if (o.now !== undefined) r.now = o.now;
  if (o.timePreference === false) r.timePreference = false;
  if (o.preferCurrent === false) r.preferCurrent = false;
  if (o.preferSpeaker === false) r.preferSpeaker = false;
  if (o.bestMatch === true) r.bestMatch = true;
  if (o.excludeSuperseded === true) r.excludeSuperseded = true;
  return r;
}
