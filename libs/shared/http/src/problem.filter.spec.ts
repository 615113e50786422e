import { NotFoundException, UnauthorizedException } from '@nestjs/common';

import { badRequest, unauthorized } from './problem.exception';
import { toProblem } from './problem.filter';

describe('toProblem', () => {
  it('renders our problems with field errors', () => {
    const { body } = toProblem(
      badRequest('invalid', [{ field: 'amount', message: 'must be positive' }]),
      '/orders/create',
    );
    expect(body).toEqual({
      type: 'https://onramp.dev/problems/validation',
      title: 'Bad Request',
      status: 400,
      detail: 'invalid',
      instance: '/orders/create',
      errors: [{ field: 'amount', message: 'must be positive' }],
    });
  });

  it('adds WWW-Authenticate: Bearer to every 401', () => {
    expect(toProblem(unauthorized(), '/x').headers).toEqual({ 'WWW-Authenticate': 'Bearer' });
    expect(toProblem(new UnauthorizedException(), '/x').headers).toEqual({ 'WWW-Authenticate': 'Bearer' });
  });

  it('maps Fastify body errors to 413/415/400 and hides unknown errors behind a 500', () => {
    expect(toProblem({ statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' }, '/').body.status).toBe(413);
    expect(toProblem({ statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' }, '/').body.status).toBe(415);
    expect(toProblem({ statusCode: 400, message: 'Unexpected end of JSON input' }, '/').body.status).toBe(
      400,
    );
    expect(toProblem(new NotFoundException(), '/').body.status).toBe(404);
    const internal = toProblem(new Error('db password is hunter2'), '/');
    expect(internal.body.status).toBe(500);
    expect(JSON.stringify(internal.body)).not.toContain('hunter2');
  });
});
