// The budget of answers in flight: an answer is counted until its response closes, one that does
// not fit beside the others is refused, and one alone always fits.
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createAnswerBudget } from '../../src/plugins/answer-budget.js';

const response = () => new EventEmitter() as unknown as ServerResponse;

describe('the budget of answers in flight', () => {
  it('counts an answer until its response closes, and refuses one that does not fit beside the others', () => {
    const budget = createAnswerBudget(1000);
    const first = response();
    expect(budget.reserve(600, first)).toBe(true);
    expect(budget.reserve(300, response())).toBe(true);
    expect(budget.bytes).toBe(900);
    expect(budget.reserve(200, response())).toBe(false);
    expect(budget.bytes).toBe(900);
    first.emit('close');
    expect(budget.bytes).toBe(300);
    expect(budget.reserve(200, response())).toBe(true);
  });

  it('lets one answer larger than the budget go out alone', () => {
    const budget = createAnswerBudget(1000);
    const alone = response();
    expect(budget.reserve(5000, alone)).toBe(true);
    expect(budget.reserve(1, response())).toBe(false);
    alone.emit('close');
    expect(budget.bytes).toBe(0);
  });
});
