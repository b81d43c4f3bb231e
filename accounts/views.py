from typing import Any

from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts import services
from accounts.extensions import login_landing
from accounts.forms import ProfileForm, SignUpForm
from accounts.lockout import too_many_requests
from config.errors import ServiceError
from config.pages import next_or
from config.throttling import (
    LoginFailureThrottle,
    PasswordResetAddressThrottle,
    PasswordResetEmailThrottle,
    SignupThrottle,
    page_wait,
)


class LoginView(auth_views.LoginView):
    """Django's login, refused (429) for an address with too many failed logins, whatever
    the usernames (config.throttling.LoginFailureThrottle); django-axes separately locks one
    username at one address. A player signing in during a running event lands on their table
    for the current round (the landing matches provides, accounts.extensions) unless `next`
    says where to go."""

    template_name = "accounts/login.html"

    def get_default_redirect_url(self) -> str:
        return login_landing(self.request.user) or str(super().get_default_redirect_url())

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = LoginFailureThrottle().refused_for(request)
        if wait is not None:
            reason = _(
                "Too many failed logins from your connection: logins are paused, even with "
                "the right password."
            )
            return too_many_requests(request, wait, reason, reset_link=True)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form: Any) -> HttpResponse:
        if form.data.get("username") and form.data.get("password"):
            LoginFailureThrottle().failed(self.request)
        return super().form_invalid(form)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    if request.method == "POST":
        wait = page_wait(request, SignupThrottle())
        if wait is not None:
            reason = _("Too many accounts created from your connection: no account was created.")
            return too_many_requests(request, wait, reason)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome! Your player id is %(id)s.") % {"id": user.player_id})
        return redirect(next_or(request, reverse("home")))
    return render(request, "accounts/signup.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Profile saved."))
        return redirect("profile")
    return render(request, "accounts/profile.html", {"form": form})


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset, limited per address and per e-mail asked for: beyond the
    limit the answer is a 429 page and no e-mail is sent."""

    template_name = "accounts/form_page.html"

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = page_wait(request, PasswordResetAddressThrottle(), PasswordResetEmailThrottle())
        if wait is not None:
            reason = _("Too many password reset requests: no e-mail was sent this time.")
            return too_many_requests(request, wait, reason)
        return super().post(request, *args, **kwargs)


@login_required
@require_http_methods(["GET", "POST"])
def erase_account(request: HttpRequest) -> HttpResponse:
    """Erase my account: a second, explicit step that says what goes and what stays, and
    asks for the password."""
    error = ""
    if request.method == "POST":
        user = request.user
        try:
            services.account_erase(
                actor=user,
                user=user,
                confirm=request.POST.get("confirm") == "yes",
                password=request.POST.get("password", ""),
            )
        except ServiceError as exc:
            error = exc.message
        else:
            logout(request)
            messages.success(request, _("Your account is erased."))
            return redirect("home")
    return render(
        request,
        "accounts/erase.html",
        {"consequences": services.erase_consequences(request.user), "error": error},
    )
