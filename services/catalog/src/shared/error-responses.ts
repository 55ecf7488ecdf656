import { errorBody } from '@aplt/http';

/** The fleet's one error body, documented for every status an admin route may answer with. */
export const errorResponses = {
  400: errorBody,
  401: errorBody,
  403: errorBody,
  404: errorBody,
  409: errorBody,
  422: errorBody,
};
