from django.apps import AppConfig


class OrganisationsConfig(AppConfig):
    name = "organisations"
    verbose_name = "Organisations"

    def ready(self) -> None:
        from organisations.services import OrganisationRoles, refuse_suspended
        from tournaments.extensions import provide_organisation_roles, provide_registration_check

        provide_organisation_roles(OrganisationRoles())
        provide_registration_check(refuse_suspended)
