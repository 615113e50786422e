import { Body, Controller, Header, HttpCode, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { FastifyRequest } from 'fastify';

import { IssueTokenUseCase, TokenResponse } from './issue-token.usecase';
import { ApiIssueToken } from './token.openapi';

@ApiTags('Authentication')
@Controller('auth')
export class TokenController {
  constructor(private readonly issueToken: IssueTokenUseCase) {}

  // Tokens must never be cached by a browser or an intermediary (RFC 6749 section 5.1).
  @Post('token')
  @HttpCode(200)
  @ApiIssueToken()
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  token(@Req() req: FastifyRequest, @Body() body: unknown): Promise<TokenResponse> {
    return this.issueToken.execute({ authorization: req.headers.authorization, body });
  }
}
