/** What a sandbox handler answers: a status and a JSON body (none for 204). Errors are `{ Message, MessageDetail? }`. */
import type { ServiceErrorBody } from '../../api/types.ts';

export interface Reply {
  status: number;
  /** Absent for 204. */
  body?: unknown;
}

export const ok = (body: unknown): Reply => ({ status: 200, body });

/** 201 Created: what Create Basket answers (a published client of the service checks for exactly 201 there, and 200 everywhere else). */
export const created = (body: unknown): Reply => ({ status: 201, body });

export const fail = (status: number, message: string, detail?: string): Reply => {
  const body: ServiceErrorBody = { Message: message };
  if (detail) body.MessageDetail = detail;
  return { status, body };
};

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export const isReply = (v: unknown): v is Reply => isObject(v) && typeof v.status === 'number';
