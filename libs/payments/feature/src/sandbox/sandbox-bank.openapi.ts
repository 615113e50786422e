import { applyDecorators } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOperation } from '@nestjs/swagger';

import { ApiJsonBodyProblems, ApiProblemResponse, ApiValidationProblem } from '@onramp/openapi';

import { SepaCreditAcceptedResponse } from './sepa-credit.response';

// API documentation of POST /sandbox/sepa-credits (tools/openapi builds the documents from it).
export const ApiCreateSepaCredit = () =>
  applyDecorators(
    ApiOperation({
      operationId: 'createSandboxSepaCredit',
      summary: 'Simulate an incoming SEPA credit (sandbox only)',
      description:
        'Plays the bank in sandbox mode: "the end user paid". A `BOOKED` credit whose reference matches an open order of the calling merchant confirms its payment, whatever the amount (USDC is computed from the amount paid); `REJECTED` fails the order. A credit matching nothing, or an order already paid, is stored and never pays. Not available in production (404).',
    }),
    ApiAcceptedResponse({
      description: 'The credit is booked; the order follows asynchronously.',
      type: SepaCreditAcceptedResponse,
    }),
    ApiValidationProblem({
      field: 'amount',
      message: 'amount must be a positive number with at most 2 decimals',
    }),
    ApiProblemResponse(404, 'The service runs in production mode, where the sandbox bank does not exist.', {
      detail: 'no such route',
    }),
    ApiJsonBodyProblems(),
  );
