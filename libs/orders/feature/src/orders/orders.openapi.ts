import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiProduces } from '@nestjs/swagger';

import {
  ApiIdempotencyKey,
  ApiJsonBodyProblems,
  ApiPaginatedResponse,
  ApiProblemResponse,
  ApiUuidParamProblem,
  ApiUuidPathParam,
  ApiValidationProblem,
} from '@onramp/openapi';

import { OrdersProblemTypes } from '../problem-types';
import { CreateOrderDto } from './dto/create-order.dto';
import { OrderResponseBody } from './order.response';

// API documentation of /orders/* (tools/openapi builds the documents from it).
export const ApiCreateOrder = () =>
  applyDecorators(
    ApiOperation({
      operationId: 'createOrder',
      summary: 'Create an order',
      description:
        'Starts an on-ramp order for a KYC-approved end user. The response carries the payment details (`iban`, `bic`, SEPA `reference`) the end user pays with; when the payment arrives the USDC is sent to `recepientAddress` and the order becomes `COMPLETED` (webhook `order.completed`), or `FAILED` (webhook `order.failed`).',
    }),
    ApiIdempotencyKey(),
    // One explicit example: built from the properties, it would send both spellings of the address.
    ApiBody({
      type: CreateOrderDto,
      examples: {
        order: {
          summary: 'An order of 100.50 EUR',
          value: {
            amount: 100.5,
            currency: 'EUR',
            recepientAddress: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
            kycUserUuid: '01937a8e-4c2b-7d10-9a31-5f2e8b6c4d20',
          },
        },
      },
    }),
    ApiCreatedResponse({
      description: 'The order, status `CREATED` (or the first response of this Idempotency-Key).',
      type: OrderResponseBody,
    }),
    ApiValidationProblem({
      field: 'currency',
      message: 'currency is required and must be EUR, the only supported currency',
    }),
    ApiProblemResponse(409, 'The Idempotency-Key was used with a different body.', {
      detail: 'this Idempotency-Key was already used with a different request body',
    }),
    ApiProblemResponse(
      422,
      '`kycUserUuid` is not a user of the calling merchant, or the user is not `APPROVED`.',
      {
        type: OrdersProblemTypes.KycNotApproved,
        detail: 'the KYC user is not approved (status REJECTED)',
        errors: [{ field: 'kycUserUuid', message: 'KYC status is REJECTED, orders need APPROVED' }],
      },
    ),
    ApiProblemResponse(
      503,
      'The KYC check could not be made right now, or a service is unreachable. Retry after the given delay.',
      {
        headers: {
          'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer', example: 1 } },
        },
        detail: 'the KYC service is temporarily unavailable; retry shortly',
      },
    ),
    ApiJsonBodyProblems(),
  );

export const ApiListOrders = () =>
  applyDecorators(
    ApiOperation({
      operationId: 'listOrders',
      summary: 'List orders',
      description: "The calling merchant's orders, paginated.",
    }),
    ApiPaginatedResponse(OrderResponseBody, { description: 'One page of orders.', path: '/orders' }),
  );

export const ApiGetPaymentDetails = () =>
  applyDecorators(
    ApiOperation({
      operationId: 'getPaymentDetails',
      summary: 'Get an order',
      description: 'The order with its payment details and current status.',
    }),
    ApiUuidPathParam('uuid', 'The order `uuid` from the create-order response.'),
    ApiOkResponse({ description: 'The order.', type: OrderResponseBody }),
    ApiUuidParamProblem('uuid'),
    ApiProblemResponse(404, 'No order with this uuid belongs to the calling merchant.', {
      detail: 'order not found',
    }),
  );

export const ApiGetPaymentQr = () =>
  applyDecorators(
    ApiOperation({
      operationId: 'getPaymentQr',
      summary: 'Get the payment QR code',
      description:
        'An SVG QR code of the payment details (EPC069-12 "GiroCode", error correction M, the order\'s `epcQrPayload`): IBAN, BIC, beneficiary name, amount and the RF reference in the structured field. The end user scans it in a banking app instead of typing them. Only while the order is `CREATED`.',
    }),
    ApiUuidPathParam('uuid', 'The order `uuid` from the create-order response.'),
    ApiProduces('image/svg+xml'),
    ApiOkResponse({
      description: 'The QR code as an SVG image (black on white, with its quiet zone).',
      content: { 'image/svg+xml': { schema: { type: 'string' } } },
    }),
    ApiUuidParamProblem('uuid'),
    ApiProblemResponse(404, 'No order with this uuid belongs to the calling merchant.', {
      detail: 'order not found',
    }),
    ApiProblemResponse(409, 'The order is `COMPLETED` or `FAILED`: it takes no payment.', {
      detail: 'order is COMPLETED: it takes no payment',
    }),
  );
