/**
 * One handler per operation of the table (the `Record<OperationName, …>` type
 * makes a missing one a compile error), composed from the groups beside this
 * file: the catalogue reads, the basket, orders and payment, and the five
 * operations from the DTO library. handlers-common.ts holds what they share.
 */
import type { OperationName } from '../../api/operations.ts';
import { basketHandlers } from './handlers-basket.ts';
import { catalogueHandlers } from './handlers-catalogue.ts';
import type { Handler } from './handlers-common.ts';
import { dtoHandlers } from './handlers-dto.ts';
import { orderHandlers } from './handlers-orders.ts';

export type { DateToReading, HandlerContext, OpRequest } from './handlers-common.ts';

export const handlers: Record<OperationName, Handler> = {
  ...basketHandlers,
  ...orderHandlers,
  ...catalogueHandlers,
  ...dtoHandlers,
};
