FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY . .
RUN pip install --no-cache-dir .
# Static files are built with the production storage (hashed names + manifest); the key is a
# build-time placeholder, never used to serve: the real one comes from the environment.
RUN DJANGO_DEBUG=0 DJANGO_SECRET_KEY=build-time-placeholder-not-used-at-runtime-0123456789abcdef \
    python manage.py collectstatic --noinput
EXPOSE 8000
# 2 x cores + 1 sync workers for the 2-core host measured in docs/operations.md: raise it with the cores.
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "5", "--limit-request-line", "8190", "--limit-request-fields", "100", "--limit-request-field_size", "8190"]
