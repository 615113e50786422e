export interface FieldError {
  field: string;
  message: string;
}

// RFC 9457 application/problem+json as the API renders it.
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  errors?: FieldError[];
}
