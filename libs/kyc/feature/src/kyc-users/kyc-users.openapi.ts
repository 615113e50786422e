import { applyDecorators } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';

import {
  ApiIdempotencyKey,
  ApiJsonBodyProblems,
  ApiPaginatedResponse,
  ApiProblemResponse,
  ApiUuidParamProblem,
  ApiUuidPathParam,
  ApiValidationProblem,
} from '@onramp/openapi';

import { KycProblemTypes } from '../kyc-problem-types';
import { KycUserResponseBody } from './kyc-user.response';

// API documentation of /kyc/* (tools/openapi builds the documents from it).
export const ApiAddKycUser = () =>
  applyDecorators(
    ApiOperation({
      operationId: 'addKycUser',
      summary: 'Register an end user',
      description:
        'Submits the identification data of an end user. The response is the KYC object; keep its `uuid`, it is the `kycUserUuid` of the orders for this user.',
    }),
    ApiIdempotencyKey(),
    ApiCreatedResponse({
      description: 'The user is registered (or the first response of this Idempotency-Key).',
      type: KycUserResponseBody,
    }),
    ApiValidationProblem({
      field: 'dateOfBirth',
      message: 'dateOfBirth must be a real date in the past in the format YYYY-MM-DD',
    }),
    ApiProblemResponse(
      409,
      'The `externalId` is already registered for this merchant, or the Idempotency-Key was used with a different body.',
      { detail: 'a KYC user with this externalId is already registered' },
    ),
    ApiJsonBodyProblems(),
  );

export const ApiListKycUsers = () =>
  applyDecorators(
    ApiOperation({
      operationId: 'listKycUsers',
      summary: 'List end users',
      description: 'The end users registered by the calling merchant, paginated.',
    }),
    ApiPaginatedResponse(KycUserResponseBody, {
      description: 'One page of KYC objects.',
      path: '/kyc/get-all',
    }),
  );

export const ApiGetKycUser = () =>
  applyDecorators(
    ApiOperation({ operationId: 'getKycUser', summary: 'Get an end user' }),
    ApiUuidPathParam('uuid', 'The `uuid` returned by `POST /kyc/add`.'),
    ApiOkResponse({ description: 'The KYC object.', type: KycUserResponseBody }),
    ApiUuidParamProblem('uuid'),
    ApiProblemResponse(404, 'No user with this uuid was registered by the calling merchant.', {
      detail: 'KYC user not found',
    }),
    ApiProblemResponse(410, "An operator erased this user's personal data (the user is no longer listed).", {
      type: KycProblemTypes.Erased,
      detail: "this KYC user's personal data was erased",
    }),
  );
