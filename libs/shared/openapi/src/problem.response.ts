import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

import { FieldError, ProblemBody, SharedProblemTypes } from '@onramp/http';

export const PROBLEM_JSON = 'application/problem+json';

@ApiSchema({ name: 'FieldError', description: 'One invalid field of the request.' })
export class FieldErrorResponse implements FieldError {
  @ApiProperty({
    description: 'Name of the field (dotted for nested fields, e.g. `address.city`).',
    example: 'amount',
  })
  field!: string;

  @ApiProperty({ description: 'What is wrong with it.', example: 'amount must have at most 2 decimals' })
  message!: string;
}

// The body of every error response (libs/shared/http ProblemException).
@ApiSchema({
  name: 'Problem',
  description: 'RFC 9457 problem details, plus `errors` listing the invalid fields of a 400 or 422.',
})
export class ProblemResponse implements ProblemBody {
  @ApiProperty({
    description: 'URI identifying the kind of problem; `about:blank` when the status code says it all.',
    format: 'uri-reference',
    example: SharedProblemTypes.Validation,
  })
  type!: string;

  @ApiProperty({ description: 'Short summary of the status code.', example: 'Bad Request' })
  title!: string;

  @ApiProperty({ description: 'The HTTP status code.', type: 'integer', example: 400 })
  status!: number;

  @ApiProperty({ description: 'Explanation for this occurrence.', example: 'the request has invalid fields' })
  detail!: string;

  @ApiPropertyOptional({
    description: 'Path of the request.',
    format: 'uri-reference',
    example: '/orders/create',
  })
  instance?: string;

  @ApiPropertyOptional({
    description: 'The invalid fields, one entry per problem.',
    type: [FieldErrorResponse],
  })
  errors?: FieldErrorResponse[];
}
