import type { RuleObject } from 'antd/es/form';
import { MAX_REFUSAL_REASON } from '@crewswap/proto/browser';

/** The desk's refusal reason, in the contract's words (RefuseSwapRequestBody): required, at most 200 characters. */
export const REFUSAL_REASON_RULES: RuleObject[] = [
  { required: true, whitespace: true, message: 'Please give a reason' },
  { max: MAX_REFUSAL_REASON, message: `The reason can be at most ${MAX_REFUSAL_REASON} characters` },
];
