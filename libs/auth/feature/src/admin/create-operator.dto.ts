import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsIn,
  IsString,
  Matches,
  NotEquals,
} from 'class-validator';

import { OPERATOR_ID_PATTERN, OPERATOR_SCOPES, OperatorScope } from '@onramp/auth';

export class CreateOperatorDto {
  @IsString({ message: 'id must be a string' })
  @Matches(OPERATOR_ID_PATTERN, {
    message: 'id must be 1-64 of a-z 0-9 . _ @ - (starting with a letter or digit)',
  })
  // `admin` is the bootstrap key's operator
  @NotEquals('admin', { message: 'id "admin" is reserved for the bootstrap key' })
  id!: string;

  @IsArray({ message: 'scopes must be an array' })
  @ArrayNotEmpty({ message: 'scopes must not be empty' })
  @ArrayMaxSize(OPERATOR_SCOPES.length, { message: 'scopes lists a scope twice' })
  @ArrayUnique({ message: 'scopes lists a scope twice' })
  @IsIn(OPERATOR_SCOPES, { each: true, message: `each scope must be one of ${OPERATOR_SCOPES.join(', ')}` })
  scopes!: OperatorScope[];
}
